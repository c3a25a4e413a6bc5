package dubbots.interop;

import dubbo.tri.test.Greeter;
import dubbo.tri.test.GreeterOuterClass.HelloReply;
import dubbo.tri.test.GreeterOuterClass.HelloRequest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.common.constants.CommonConstants;
import org.apache.dubbo.common.stream.StreamObserver;
import org.apache.dubbo.common.utils.NetUtils;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.rpc.RpcContext;
import org.apache.dubbo.rpc.RpcException;
import org.apache.dubbo.rpc.StatusRpcException;

/**
 * A Java Dubbo 3.3 peer of the Greeter service in IDL mode (protobuf messages on Triple), one JVM
 * for a whole test file. It first prints @@"HOST", the address Java uses for this machine, then
 * answers each stdin command with @@ lines and @@END:
 *
 * <pre>
 *   provide REGISTRY|- PORT   exports Greeter over tri on HOST:PORT (registered unless REGISTRY is -)
 *   consume TARGET            refers Greeter at TARGET (tri://HOST:PORT or a registry address) and
 *                             prints one {"case":..., "value":...} or {"case":..., "type":...,
 *                             "error":..., "status": GRPC_CODE|null, "rpcCode": DUBBO_CODE|null}
 *                             line per case
 * </pre>
 *
 * The provider is JavaGreeter (it answers as GreeterReplies says). This file, GreeterReplies and the
 * consumer compile against either Greeter: the plain Java interface of Greeter.java (this folder's
 * JavaGreeter implements it) or the one Dubbo's protoc plugin generates (test/interop/java-dubbo3-stubs/,
 * whose JavaGreeter extends the generated GreeterImplBase and whose consumer calls the generated stub).
 */
public final class IdlPeer {
  private static final ApplicationConfig APPLICATION = application();
  private static final long STREAM_WAIT_SECONDS = 10;

  public static void main(String[] args) throws Exception {
    JsonOut.line(JsonOut.quote(NetUtils.getLocalHost()));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] words = line.trim().split(" ");
      try {
        switch (words[0]) {
          case "provide" -> provide(words[1], Integer.parseInt(words[2]));
          case "consume" -> consume(words[1]);
          default -> JsonOut.line(JsonOut.object("error", "unknown command " + words[0]));
        }
      } catch (Throwable e) {
        JsonOut.line(JsonOut.object("error", e.getClass().getName() + ": " + e.getMessage()));
      }
      JsonOut.line("END");
    }
    System.exit(0);
  }

  private static ApplicationConfig application() {
    ApplicationConfig app = new ApplicationConfig(System.getProperty("peer.name", "java-idl"));
    app.setQosEnable(false);
    return app;
  }

  private static RegistryConfig registry(String address) {
    return new RegistryConfig(address.equals("-") ? RegistryConfig.NO_AVAILABLE : address);
  }

  private static void provide(String registry, int port) {
    ProtocolConfig protocol = new ProtocolConfig("tri", port);
    protocol.setHost(NetUtils.getLocalHost());
    ServiceConfig<Greeter> service = new ServiceConfig<>();
    service.setApplication(APPLICATION);
    service.setRegistry(registry(registry));
    service.setProtocol(protocol);
    service.setInterface(Greeter.class);
    service.setRef(new JavaGreeter());
    service.export();
    JsonOut.line(JsonOut.object("exported", service.getExportedUrls().get(0).toFullString()));
  }

  private static void consume(String target) {
    ReferenceConfig<Greeter> reference = new ReferenceConfig<>();
    reference.setApplication(APPLICATION);
    reference.setInterface(Greeter.class);
    reference.setProtocol("tri");
    reference.setTimeout(5000);
    reference.setRetries(0);
    // Never this JVM's own provider (Dubbo would call it in-process, where streams do not work).
    reference.setScope("remote");
    if (target.startsWith("tri://")) reference.setUrl(target);
    else {
      reference.setRegistry(registry(target));
      reference.setCheck(false);
    }
    Greeter greeter = reference.get();
    if (!target.startsWith("tri://")) waitForProvider(greeter);
    run("proxy", () -> greeter.getClass().getName());
    run("sayHello", () -> {
      RpcContext.getClientAttachment().setAttachment("x-caller", "java-consumer");
      HelloReply answer = greeter.sayHello(request("java", 0, 0, 0));
      return answer.getMessage() + " / x-served-by=" + RpcContext.getClientResponseContext().getAttachment("x-served-by");
    });
    run("countdown", () -> {
      Replies replies = new Replies();
      greeter.countdown(request("java", 3, 0, 0), replies);
      return replies.await();
    });
    run("collect", () -> {
      Replies reply = new Replies();
      StreamObserver<HelloRequest> requests = greeter.collect(reply);
      for (String name : new String[] {"a", "b", "c"}) requests.onNext(request(name, 0, 0, 0));
      requests.onCompleted();
      return reply.await();
    });
    run("chat", () -> {
      Replies replies = new Replies();
      StreamObserver<HelloRequest> requests = greeter.chat(replies);
      requests.onNext(request("x", 1, 0, 0));
      requests.onNext(request("y", 2, 0, 0));
      requests.onCompleted();
      return replies.await();
    });
    run("status", () -> greeter.sayHello(request("java", 0, 0, 5)).getMessage());
    run("deadline", () -> {
      RpcContext.getClientAttachment().setObjectAttachment(CommonConstants.TIMEOUT_KEY, 300);
      return greeter.sayHello(request("slow", 0, 3000, 0)).getMessage();
    });
  }

  private static HelloRequest request(String name, int count, int delayMs, int failCode) {
    return HelloRequest.newBuilder().setName(name).setCount(count).setDelayMs(delayMs).setFailCode(failCode).build();
  }

  /** Collects a stream's replies as "message#index" strings, or its error. */
  private static final class Replies implements StreamObserver<HelloReply> {
    private final List<String> received = new ArrayList<>();
    private final CompletableFuture<List<String>> done = new CompletableFuture<>();

    @Override
    public synchronized void onNext(HelloReply reply) {
      received.add(reply.getMessage() + "#" + reply.getIndex());
    }

    @Override
    public void onError(Throwable throwable) {
      done.completeExceptionally(throwable);
    }

    @Override
    public synchronized void onCompleted() {
      done.complete(new ArrayList<>(received));
    }

    Object await() throws Exception {
      try {
        return done.get(STREAM_WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        throw (Exception) e.getCause();
      }
    }
  }

  /** Through a registry the provider may show up a moment later: retry the first call for a while. */
  private static void waitForProvider(Greeter greeter) {
    for (int i = 0; i < 100; i++) {
      try {
        greeter.sayHello(request("probe", 0, 0, 0));
        return;
      } catch (RuntimeException e) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  private interface Case {
    Object call() throws Exception;
  }

  private static void run(String name, Case call) {
    try {
      JsonOut.line(JsonOut.object("case", name, "value", call.call()));
    } catch (Throwable e) {
      Integer status = null;
      for (Throwable cause = e; cause != null && status == null; cause = cause.getCause()) {
        // Dubbo's consumer wraps the status: RpcException(ExecutionException(StatusRpcException)).
        if (cause instanceof StatusRpcException s) status = s.getStatus().code.code;
      }
      Integer rpcCode = e instanceof RpcException r ? r.getCode() : null;
      JsonOut.line(JsonOut.object(
          "case", name, "type", e.getClass().getName(), "error", String.valueOf(e.getMessage()),
          "status", status, "rpcCode", rpcCode));
    }
  }
}
