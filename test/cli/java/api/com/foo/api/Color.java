package com.foo.api;

public enum Color {
  RED,
  GREEN,
  BLUE;

  /** A static helper: not a constant, so not in the generated enum. */
  public static final Color DEFAULT = GREEN;
}
