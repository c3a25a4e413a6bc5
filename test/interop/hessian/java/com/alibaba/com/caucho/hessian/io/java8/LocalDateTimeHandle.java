package com.alibaba.com.caucho.hessian.io.java8;

// Same class name and fields as Dubbo hessian-lite's handle, so the bytes match what a Dubbo peer writes
// (hessian-lite replaces each java.time value by its handle) and this JVM can read the handles we send.

import com.caucho.hessian.io.HessianHandle;
import java.io.Serializable;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

public class LocalDateTimeHandle implements HessianHandle, Serializable {
  private LocalDate date;
  private LocalTime time;

  public LocalDateTimeHandle() {}

  public LocalDateTimeHandle(LocalDateTime dateTime) {
    date = dateTime.toLocalDate();
    time = dateTime.toLocalTime();
  }

  private Object readResolve() {
    return LocalDateTime.of(date, time);
  }
}
