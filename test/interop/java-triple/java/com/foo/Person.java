package com.foo;

import java.io.Serializable;

/** A POJO of the Triple interop contract. */
public class Person implements Serializable {
  private static final long serialVersionUID = 1L;

  private String name;
  private int age;

  public Person() {}

  public Person(String name, int age) {
    this.name = name;
    this.age = age;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public int getAge() {
    return age;
  }

  public void setAge(int age) {
    this.age = age;
  }
}
