package com.foo;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The interop contract, served and called by Java Dubbo and by dubbo-ts: one echo per row of the
 * README's Java type table, an exception with a cause, attachments both ways, overloads, and slow
 * methods for the timeout and retries settings a provider registers.
 */
public interface InteropService {
  int echoInt(int v);

  short echoShort(short v);

  byte echoByte(byte v);

  double echoDouble(double v);

  float echoFloat(float v);

  long echoLong(long v);

  String echoString(String v);

  char echoChar(char v);

  boolean echoBoolean(boolean v);

  byte[] echoBytes(byte[] v);

  Date echoDate(Date v);

  LocalDate echoLocalDate(LocalDate v);

  LocalDateTime echoLocalDateTime(LocalDateTime v);

  Instant echoInstant(Instant v);

  LocalTime echoLocalTime(LocalTime v);

  Duration echoDuration(Duration v);

  BigDecimal echoBigDecimal(BigDecimal v);

  BigInteger echoBigInteger(BigInteger v);

  List<User> echoUsers(List<User> v);

  int[] echoInts(int[] v);

  Set<String> echoSet(Set<String> v);

  Map<Integer, String> echoMap(Map<Integer, String> v);

  Color echoColor(Color v);

  User echoUser(User v);

  /** Echoes a value whose type only the value itself carries. */
  Object echoObject(Object v);

  /** The Java class name of what arrived as an Object parameter. */
  String classOf(Object v);

  /** Throws IllegalStateException(message) caused by IllegalArgumentException("root: " + message). */
  void fail(String message);

  /** Returns the request's attachment `key` and sends back the attachment reply=pong-{value}. */
  String attachment(String key);

  String over(String s);

  String over(int i);

  String over(String s, int i);

  /** Sleeps, then answers "slept {ms}". */
  String sleep(int ms);

  /** Counts a call under `tag`, sleeps, and answers the count. */
  int sleepCounted(String tag, int ms);

  /** How many calls sleepCounted saw under `tag`. */
  int count(String tag);
}
