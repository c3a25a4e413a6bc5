package dubbots.interop;

import com.alibaba.com.caucho.hessian.io.java8.DurationHandle;
import com.alibaba.com.caucho.hessian.io.java8.InstantHandle;
import com.alibaba.com.caucho.hessian.io.java8.LocalDateHandle;
import com.alibaba.com.caucho.hessian.io.java8.LocalDateTimeHandle;
import com.alibaba.com.caucho.hessian.io.java8.LocalTimeHandle;
import com.caucho.hessian.io.AbstractHessianOutput;
import com.caucho.hessian.io.AbstractSerializer;
import com.caucho.hessian.io.AbstractSerializerFactory;
import com.caucho.hessian.io.BigDecimalDeserializer;
import com.caucho.hessian.io.Deserializer;
import com.caucho.hessian.io.Serializer;
import com.caucho.hessian.io.SerializerFactory;
import com.caucho.hessian.io.StringValueSerializer;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * Makes Caucho Hessian 4.0.38 (Debian's jar) write and read the types below the way Dubbo's
 * hessian-lite does. The upstream Caucho jar ships this as META-INF/hessian/serializers; Debian's
 * does not, so without it BigDecimal would travel as its private fields.
 *
 * <ul>
 *   <li>java.math.BigDecimal: an object of class java.math.BigDecimal with one field "value" holding
 *       toString() (hessian-lite's META-INF/dubbo/hessian/serializers maps it to
 *       StringValueSerializer and BigDecimalDeserializer).
 *   <li>java.time LocalDate, LocalTime, LocalDateTime, Instant, Duration: replaced by hessian-lite's
 *       handle objects (com.alibaba.com.caucho.hessian.io.java8.*Handle), its default (non-compact)
 *       mode.
 *   <li>java.lang.Short, Byte, Float: plain Hessian int and double, as hessian-lite's BasicSerializer
 *       writes them (Caucho 4.0.38 writes them as com.caucho.hessian.io.ShortHandle objects); a float
 *       is widened through its decimal text, so 0.1f travels as the double 0.1 (checked against the
 *       real hessian-lite by test/interop/java-dubbo-real/).
 * </ul>
 */
final class HessianLiteCompat extends AbstractSerializerFactory {
  private static final Serializer TIME = new TimeHandleSerializer();
  private static final Serializer NARROW_NUMBER = new NarrowNumberSerializer();

  static SerializerFactory createFactory() {
    SerializerFactory factory = new SerializerFactory();
    factory.addFactory(new HessianLiteCompat());
    return factory;
  }

  @Override
  public Serializer getSerializer(Class cl) {
    if (cl == BigDecimal.class) return StringValueSerializer.SER;
    if (cl == Short.class || cl == Byte.class || cl == Float.class) return NARROW_NUMBER;
    if (cl == LocalDate.class
        || cl == LocalTime.class
        || cl == LocalDateTime.class
        || cl == Instant.class
        || cl == Duration.class) return TIME;
    return null;
  }

  @Override
  public Deserializer getDeserializer(Class cl) {
    if (cl == BigDecimal.class) return new BigDecimalDeserializer();
    return null;
  }

  private static final class NarrowNumberSerializer extends AbstractSerializer {
    @Override
    public void writeObject(Object obj, AbstractHessianOutput out) throws IOException {
      if (obj instanceof Float) out.writeDouble(Double.parseDouble(obj.toString()));
      else out.writeInt(((Number) obj).intValue());
    }
  }

  private static final class TimeHandleSerializer extends AbstractSerializer {
    @Override
    protected Object writeReplace(Object obj) {
      if (obj instanceof LocalDate) return new LocalDateHandle((LocalDate) obj);
      if (obj instanceof LocalTime) return new LocalTimeHandle((LocalTime) obj);
      if (obj instanceof LocalDateTime) return new LocalDateTimeHandle((LocalDateTime) obj);
      if (obj instanceof Instant) return new InstantHandle((Instant) obj);
      if (obj instanceof Duration) return new DurationHandle((Duration) obj);
      throw new IllegalArgumentException("no hessian-lite handle for " + obj.getClass().getName());
    }
  }
}
