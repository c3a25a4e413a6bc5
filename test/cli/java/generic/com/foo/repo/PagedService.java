package com.foo.repo;

import java.util.List;

/** Binds BaseService's ID and passes its own E on as T. */
public interface PagedService<E> extends BaseService<E, Long> {
  List<E> page(int from, int size);
}
