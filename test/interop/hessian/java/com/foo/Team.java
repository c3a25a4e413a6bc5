package com.foo;

import java.io.Serializable;
import java.util.List;

/** The lead is also one of the members: a shared reference. */
public class Team implements Serializable {
  public String name;
  public User lead;
  public List<User> members;

  public Team() {}
}
