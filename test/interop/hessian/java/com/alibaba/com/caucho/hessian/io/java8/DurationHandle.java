package com.alibaba.com.caucho.hessian.io.java8;

// Same class name and fields as Dubbo hessian-lite's handle, so the bytes match what a Dubbo peer writes
// (hessian-lite replaces each java.time value by its handle) and this JVM can read the handles we send.

import com.caucho.hessian.io.HessianHandle;
import java.io.Serializable;
import java.time.Duration;

public class DurationHandle implements HessianHandle, Serializable {
  private long seconds;
  private int nanos;

  public DurationHandle() {}

  public DurationHandle(Duration duration) {
    seconds = duration.getSeconds();
    nanos = duration.getNano();
  }

  private Object readResolve() {
    return Duration.ofSeconds(seconds, nanos);
  }
}
