package com.foo;

/** A user exception with an extra field, as a provider's own business exception. */
public class BizException extends Exception {
  public int errorCode;

  public BizException() {}

  public BizException(String message, int errorCode) {
    super(message);
    this.errorCode = errorCode;
  }
}
