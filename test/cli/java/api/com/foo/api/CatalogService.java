package com.foo.api;

import java.math.BigDecimal;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The contract `dubbo-ts gen` reads in the tests: every kind of type a Dubbo API carries. */
public interface CatalogService extends Counting {
  Product find(long id) throws NotFoundException;

  Product save(Product product);

  List<Product> search(String text, Set<Color> colors);

  Map<String, Product> byName(List<String> names);

  String describe(int i, long l, short s, byte b, float f, double d, boolean z, char c);

  String describeBoxed(Integer i, Long l, Double d, Boolean z);

  BigDecimal total(BigDecimal[] prices);

  int[] lengths(String[] words);

  Date shift(Date date, int days);

  byte[] reverse(byte[] data);

  Color next(Color color);

  void touch(long id) throws NotFoundException, IllegalStateException;

  static CatalogService none() { return null; }
}
