package com.alibaba.com.caucho.hessian.io.java8;

// Same class name and fields as Dubbo hessian-lite's handle, so the bytes match what a Dubbo peer writes
// (hessian-lite replaces each java.time value by its handle) and this JVM can read the handles we send.

import com.caucho.hessian.io.HessianHandle;
import java.io.Serializable;
import java.time.Instant;

public class InstantHandle implements HessianHandle, Serializable {
  private long seconds;
  private int nanos;

  public InstantHandle() {}

  public InstantHandle(Instant instant) {
    seconds = instant.getEpochSecond();
    nanos = instant.getNano();
  }

  private Object readResolve() {
    return Instant.ofEpochSecond(seconds, nanos);
  }
}
