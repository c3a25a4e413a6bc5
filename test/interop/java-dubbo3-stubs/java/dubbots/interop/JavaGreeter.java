package dubbots.interop;

import dubbo.tri.test.DubboGreeterTriple;
import dubbo.tri.test.GreeterOuterClass.HelloReply;
import dubbo.tri.test.GreeterOuterClass.HelloRequest;
import org.apache.dubbo.common.stream.StreamObserver;

/**
 * IdlPeer's provider as a Java team writes it on the stubs Dubbo's protoc plugin generates from
 * greeter_java_package.proto: extending DubboGreeterTriple.GreeterImplBase, which serves each rpc
 * by its proto name (and sayHelloAsync from sayHello).
 */
final class JavaGreeter extends DubboGreeterTriple.GreeterImplBase {
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
