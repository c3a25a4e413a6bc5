package dubbo.tri.test;

import dubbo.tri.test.GreeterOuterClass.HelloReply;
import dubbo.tri.test.GreeterOuterClass.HelloRequest;
import org.apache.dubbo.common.stream.StreamObserver;

/**
 * test/triple/proto/greeter.proto's service as Dubbo 3's "interface with protobuf messages" style:
 * methods that take and return protobuf-java messages are served and called in IDL mode (the raw
 * protobuf bytes, no wrapper). The interface's full name is the proto's `package.Service`, so the
 * path is the one gRPC uses; method names are lower camel case, as Java writes them.
 */
public interface Greeter {
  HelloReply sayHello(HelloRequest request);

  void countdown(HelloRequest request, StreamObserver<HelloReply> replies);

  /** Client streaming: Dubbo's reflection cannot tell it from bidi, the wire is the same. */
  StreamObserver<HelloRequest> collect(StreamObserver<HelloReply> reply);

  StreamObserver<HelloRequest> chat(StreamObserver<HelloReply> replies);
}
