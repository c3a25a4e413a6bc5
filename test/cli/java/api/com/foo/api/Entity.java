package com.foo.api;

import java.io.Serializable;
import java.util.Date;

/** A superclass in the same jar: its fields are serialized with every subclass. */
public class Entity implements Serializable {
  private static final long serialVersionUID = 1L;
  protected long id;
  protected Date createdAt;

  public long getId() { return id; }
  public void setId(long id) { this.id = id; }
  public Date getCreatedAt() { return createdAt; }
  public void setCreatedAt(Date createdAt) { this.createdAt = createdAt; }
}
