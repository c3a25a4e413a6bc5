package com.foo;

import java.io.Serializable;
import java.util.List;

/** The POJO both sides exchange: a Java class with a long, a string and a list of strings. */
public class User implements Serializable {
  public long id;
  public String name;
  public List<String> tags;

  public User() {}

  public User(long id, String name, List<String> tags) {
    this.id = id;
    this.name = name;
    this.tags = tags;
  }
}
