package com.foo.api;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;

public class Product extends Entity {
  private String name;
  private BigDecimal price;
  private Color color;
  private Integer stock;
  private List<String> tags;
  private Map<String, String> attributes;
  private Set<Color> alsoIn;
  private Dimensions dimensions;
  private List<Product> related;
  private int[] ratings;
  /** Not serialized by Java, so not in the contract. */
  private transient String cachedLabel;

  public String getName() { return name; }
  public void setName(String name) { this.name = name; }
  public BigDecimal getPrice() { return price; }
  public void setPrice(BigDecimal price) { this.price = price; }
  public Color getColor() { return color; }
  public void setColor(Color color) { this.color = color; }
  public Integer getStock() { return stock; }
  public void setStock(Integer stock) { this.stock = stock; }
  public List<String> getTags() { return tags; }
  public void setTags(List<String> tags) { this.tags = tags; }
  public Map<String, String> getAttributes() { return attributes; }
  public void setAttributes(Map<String, String> attributes) { this.attributes = attributes; }
  public Set<Color> getAlsoIn() { return alsoIn; }
  public void setAlsoIn(Set<Color> alsoIn) { this.alsoIn = alsoIn; }
  public Dimensions getDimensions() { return dimensions; }
  public void setDimensions(Dimensions dimensions) { this.dimensions = dimensions; }
  public List<Product> getRelated() { return related; }
  public void setRelated(List<Product> related) { this.related = related; }
  public int[] getRatings() { return ratings; }
  public void setRatings(int[] ratings) { this.ratings = ratings; }
}
