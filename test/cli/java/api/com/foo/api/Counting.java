package com.foo.api;

/** A superinterface: its methods are part of every service that extends it. */
public interface Counting {
  int count();

  int count(String name);

  int count(String name, boolean inStock);
}
