package com.foo;

/** Exported twice by one Java provider (two ports): which one answered, for load balancing and rules. */
public interface PickService {
  /** The port of the export that served the call. */
  int whoAmI();
}
