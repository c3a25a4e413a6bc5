package com.alibaba.com.caucho.hessian.io.java8;

// Same class name and fields as Dubbo hessian-lite's handle, so the bytes match what a Dubbo peer writes
// (hessian-lite replaces each java.time value by its handle) and this JVM can read the handles we send.

import com.caucho.hessian.io.HessianHandle;
import java.io.Serializable;
import java.time.LocalDate;

public class LocalDateHandle implements HessianHandle, Serializable {
  private int year;
  private int month;
  private int day;

  public LocalDateHandle() {}

  public LocalDateHandle(LocalDate date) {
    year = date.getYear();
    month = date.getMonthValue();
    day = date.getDayOfMonth();
  }

  private Object readResolve() {
    return LocalDate.of(year, month, day);
  }
}
