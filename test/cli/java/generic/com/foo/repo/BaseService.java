package com.foo.repo;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/** A generic superinterface: a subinterface binds T and ID, and the contract takes its types. */
public interface BaseService<T, ID> {
  T find(ID id);

  List<T> findAll(Collection<ID> ids);

  Map<ID, T> index();

  void save(T entity);
}
