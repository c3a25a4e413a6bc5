package com.foo.api;

import java.io.Serializable;

public class Dimensions implements Serializable {
  private double width;
  private double height;

  public double getWidth() { return width; }
  public void setWidth(double width) { this.width = width; }
  public double getHeight() { return height; }
  public void setHeight(double height) { this.height = height; }
}
