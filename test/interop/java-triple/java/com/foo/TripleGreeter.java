package com.foo;

/**
 * The Triple interop contract (wrapper mode: no protobuf types), served and called by Java Dubbo
 * 3.3 and by dubbo-ts: strings, a POJO, longs, a business exception and attachments both ways.
 */
public interface TripleGreeter {
  String greet(String name);

  Person older(Person person);

  long add(int a, long b);

  /** Throws IllegalStateException("refused: " + why). */
  String fail(String why);

  /** Answers the request's attachment `key` and sends back `answered-by` = the provider's name. */
  String context(String key);
}
