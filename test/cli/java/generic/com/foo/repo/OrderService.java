package com.foo.repo;

/** The service: PagedService's E is an Order, so BaseService's T is too. */
public interface OrderService extends PagedService<Order> {
  Order latest();
}
