package dubbots.interop;

import dubbo.tri.test.GreeterOuterClass.HelloReply;
import dubbo.tri.test.GreeterOuterClass.HelloRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.dubbo.common.stream.StreamObserver;
import org.apache.dubbo.rpc.RpcContext;
import org.apache.dubbo.rpc.TriRpcStatus;

/**
 * What IdlPeer's Java provider answers, whichever Greeter it implements (a plain interface with
 * protobuf messages, or the ImplBase Dubbo's protoc plugin generates): sayHello fails with status
 * failCode when it is not 0, throws for "boom", waits delayMs, answers "hello NAME from CALLER"
 * (CALLER the x-caller attachment) with an x-served-by attachment back; countdown streams count
 * replies; collect joins the names; chat answers each message.
 */
final class GreeterReplies {
  private GreeterReplies() {}

  static HelloReply sayHello(HelloRequest request) {
    if (request.getFailCode() != 0) {
      throw TriRpcStatus.fromCode(request.getFailCode())
          .withDescription("refused " + request.getName())
          .asException();
    }
    if (request.getName().equals("boom")) throw new IllegalStateException("boom in Java");
    if (request.getDelayMs() > 0) {
      try {
        Thread.sleep(request.getDelayMs());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    RpcContext.getServerResponseContext().setAttachment("x-served-by", "java-provider");
    String caller = String.valueOf(RpcContext.getServerAttachment().getAttachment("x-caller"));
    return reply("hello " + request.getName() + " from " + caller, 0);
  }

  static void countdown(HelloRequest request, StreamObserver<HelloReply> replies) {
    for (int i = request.getCount(); i > 0; i--) replies.onNext(reply(request.getName() + " " + i, i));
    replies.onCompleted();
  }

  static StreamObserver<HelloRequest> collect(StreamObserver<HelloReply> reply) {
    List<String> names = new ArrayList<>();
    return observer(request -> names.add(request.getName()), () -> {
      reply.onNext(reply(String.join(",", names), names.size()));
      reply.onCompleted();
    });
  }

  static StreamObserver<HelloRequest> chat(StreamObserver<HelloReply> replies) {
    return observer(
        request -> replies.onNext(reply("re " + request.getName(), request.getCount())), replies::onCompleted);
  }

  private static HelloReply reply(String message, int index) {
    return HelloReply.newBuilder().setMessage(message).setIndex(index).build();
  }

  /** A request stream's observer; a caller's error (a reset) just ends the call, nothing to answer. */
  private static <T> StreamObserver<T> observer(Consumer<T> next, Runnable done) {
    return new StreamObserver<T>() {
      @Override
      public void onNext(T value) {
        next.accept(value);
      }

      @Override
      public void onError(Throwable throwable) {}

      @Override
      public void onCompleted() {
        done.run();
      }
    };
  }
}
