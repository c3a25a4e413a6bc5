package com.foo.repo;

import java.io.Serializable;

/** What OrderService binds BaseService's T to. */
public class Order implements Serializable {
  private static final long serialVersionUID = 1L;
  private long id;
  private String item;
}
