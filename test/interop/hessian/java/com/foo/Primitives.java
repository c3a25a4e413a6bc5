package com.foo;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Date;
import java.util.Map;

/** One field of every kind, so field-typed reads (short, float, char...) are checked on the Java side. */
public class Primitives implements Serializable {
  public boolean z;
  public byte b;
  public short s;
  public int i;
  public long j;
  public float f;
  public double d;
  public char c;
  public Integer boxed;
  public String str;
  public Date when;
  public BigDecimal money;
  public int[] ints;
  public Map<String, Integer> counts;
  public Color color;

  public Primitives() {}
}
