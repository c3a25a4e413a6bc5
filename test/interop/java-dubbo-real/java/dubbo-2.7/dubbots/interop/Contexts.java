package dubbots.interop;

import org.apache.dubbo.rpc.RpcContext;

/** Attachments through Dubbo 2.7's RpcContext (3.3 splits it; see its own Contexts). */
final class Contexts {
  private Contexts() {}

  /** Consumer: an attachment sent with the next call. */
  static void attach(String key, String value) {
    RpcContext.getContext().setAttachment(key, value);
  }

  /** Consumer: an attachment the provider sent back with the last response. */
  static String replied(String key) {
    return RpcContext.getServerContext().getAttachment(key);
  }

  /** Provider: an attachment of the request being served. */
  static String received(String key) {
    return RpcContext.getContext().getAttachment(key);
  }

  /** Provider: an attachment sent back with the response. */
  static void reply(String key, String value) {
    RpcContext.getServerContext().setAttachment(key, value);
  }
}
