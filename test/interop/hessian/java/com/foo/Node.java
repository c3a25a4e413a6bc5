package com.foo;

import java.io.Serializable;

/** A linked node, for cyclic graphs. */
public class Node implements Serializable {
  public String name;
  public Node next;

  public Node() {}

  public Node(String name) {
    this.name = name;
  }
}
