package com.alibaba.com.caucho.hessian.io.java8;

// Same class name and fields as Dubbo hessian-lite's handle, so the bytes match what a Dubbo peer writes
// (hessian-lite replaces each java.time value by its handle) and this JVM can read the handles we send.

import com.caucho.hessian.io.HessianHandle;
import java.io.Serializable;
import java.time.LocalTime;

public class LocalTimeHandle implements HessianHandle, Serializable {
  private int hour;
  private int minute;
  private int second;
  private int nano;

  public LocalTimeHandle() {}

  public LocalTimeHandle(LocalTime time) {
    hour = time.getHour();
    minute = time.getMinute();
    second = time.getSecond();
    nano = time.getNano();
  }

  private Object readResolve() {
    return LocalTime.of(hour, minute, second, nano);
  }
}
