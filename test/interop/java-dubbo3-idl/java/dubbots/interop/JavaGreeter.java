package dubbots.interop;

import dubbo.tri.test.Greeter;
import dubbo.tri.test.GreeterOuterClass.HelloReply;
import dubbo.tri.test.GreeterOuterClass.HelloRequest;
import org.apache.dubbo.common.stream.StreamObserver;

/** IdlPeer's provider as a plain Java interface with protobuf messages (Greeter.java). */
final class JavaGreeter implements Greeter {
  @Override
  public HelloReply sayHello(HelloRequest request) {
    return GreeterReplies.sayHello(request);
  }

  @Override
  public void countdown(HelloRequest request, StreamObserver<HelloReply> replies) {
    GreeterReplies.countdown(request, replies);
  }

  @Override
  public StreamObserver<HelloRequest> collect(StreamObserver<HelloReply> reply) {
    return GreeterReplies.collect(reply);
  }

  @Override
  public StreamObserver<HelloRequest> chat(StreamObserver<HelloReply> replies) {
    return GreeterReplies.chat(replies);
  }
}
