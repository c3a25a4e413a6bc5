package dubbots.javadubbo;

import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.SerializerFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;

/**
 * Dubbo 2 framing as Java's ExchangeCodec and DubboCodec lay it out: a 16-byte header (magic
 * 0xdabb, flag byte = request 0x80 | two-way 0x40 | event 0x20 | serialization id, status byte,
 * 64-bit request id, 32-bit body length) and Hessian 2 bodies written one value after another.
 */
final class Frames {
  static final int HEADER_LENGTH = 16;
  static final int MAGIC = 0xdabb;
  static final int FLAG_REQUEST = 0x80;
  static final int FLAG_TWO_WAY = 0x40;
  static final int FLAG_EVENT = 0x20;
  static final int HESSIAN2_ID = 2;
  static final int STATUS_OK = 20;
  static final int STATUS_SERVICE_ERROR = 70;

  static final int RESPONSE_WITH_EXCEPTION = 0;
  static final int RESPONSE_VALUE = 1;
  static final int RESPONSE_NULL_VALUE = 2;
  static final int RESPONSE_WITH_EXCEPTION_WITH_ATTACHMENTS = 3;
  static final int RESPONSE_VALUE_WITH_ATTACHMENTS = 4;
  static final int RESPONSE_NULL_VALUE_WITH_ATTACHMENTS = 5;

  static final SerializerFactory FACTORY = new SerializerFactory();

  private Frames() {}

  /** One frame as read from the wire. */
  static final class Frame {
    final int flags;
    final int status;
    final long id;
    final byte[] body;

    Frame(int flags, int status, long id, byte[] body) {
      this.flags = flags;
      this.status = status;
      this.id = id;
      this.body = body;
    }

    boolean isRequest() {
      return (flags & FLAG_REQUEST) != 0;
    }

    boolean isTwoWay() {
      return (flags & FLAG_TWO_WAY) != 0;
    }

    boolean isEvent() {
      return (flags & FLAG_EVENT) != 0;
    }

    Hessian2Input body() {
      Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(body));
      in.setSerializerFactory(FACTORY);
      return in;
    }
  }

  /** A Hessian 2 body writer over a byte array, as Hessian2ObjectOutput wraps Hessian2Output. */
  static final class Body {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final Hessian2Output out = new Hessian2Output(bytes);

    Body() {
      out.setSerializerFactory(FACTORY);
    }

    byte[] finish() throws IOException {
      out.flush();
      return bytes.toByteArray();
    }
  }

  static byte[] header(int flags, int status, long id, int bodyLength) {
    byte[] h = new byte[HEADER_LENGTH];
    h[0] = (byte) (MAGIC >>> 8);
    h[1] = (byte) MAGIC;
    h[2] = (byte) flags;
    h[3] = (byte) status;
    for (int i = 0; i < 8; i++) h[4 + i] = (byte) (id >>> (56 - 8 * i));
    h[12] = (byte) (bodyLength >>> 24);
    h[13] = (byte) (bodyLength >>> 16);
    h[14] = (byte) (bodyLength >>> 8);
    h[15] = (byte) bodyLength;
    return h;
  }

  static byte[] frame(int flags, int status, long id, byte[] body) {
    byte[] h = header(flags, status, id, body.length);
    byte[] all = new byte[h.length + body.length];
    System.arraycopy(h, 0, all, 0, h.length);
    System.arraycopy(body, 0, all, h.length, body.length);
    return all;
  }

  /** DubboCodec.encodeRequestData: version, path, version, method, descriptor, args, attachments. */
  static byte[] requestBody(
      String dubboVersion,
      String path,
      String version,
      String method,
      String descriptor,
      Object[] args,
      Map<String, Object> attachments)
      throws IOException {
    Body b = new Body();
    b.out.writeString(dubboVersion);
    b.out.writeString(path);
    b.out.writeString(version);
    b.out.writeString(method);
    b.out.writeString(descriptor);
    for (Object arg : args) b.out.writeObject(arg);
    b.out.writeObject(attachments);
    return b.finish();
  }

  /** A heartbeat (or any event) body: the event data, null for a heartbeat. */
  static byte[] eventBody(Object data) throws IOException {
    Body b = new Body();
    b.out.writeObject(data);
    return b.finish();
  }

  static Frame read(InputStream input) throws IOException {
    DataInputStream in = new DataInputStream(input);
    byte[] h = new byte[HEADER_LENGTH];
    in.readFully(h);
    int magic = ((h[0] & 0xff) << 8) | (h[1] & 0xff);
    if (magic != MAGIC) throw new IOException("bad magic " + Integer.toHexString(magic));
    long id = 0;
    for (int i = 0; i < 8; i++) id = (id << 8) | (h[4 + i] & 0xff);
    int length = ((h[12] & 0xff) << 24) | ((h[13] & 0xff) << 16) | ((h[14] & 0xff) << 8) | (h[15] & 0xff);
    byte[] body = new byte[length];
    in.readFully(body);
    return new Frame(h[2] & 0xff, h[3] & 0xff, id, body);
  }

  static void write(OutputStream out, byte[] frame) throws IOException {
    out.write(frame);
    out.flush();
  }
}
