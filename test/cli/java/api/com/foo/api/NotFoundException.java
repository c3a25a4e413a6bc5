package com.foo.api;

public class NotFoundException extends Exception {
  public NotFoundException(String message) { super(message); }
}
