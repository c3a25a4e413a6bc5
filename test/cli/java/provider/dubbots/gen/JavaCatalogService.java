package dubbots.gen;

import com.foo.api.CatalogService;
import com.foo.api.Color;
import com.foo.api.Dimensions;
import com.foo.api.NotFoundException;
import com.foo.api.Product;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Answers that show each argument arrived as the Java type the contract declares. */
public final class JavaCatalogService implements CatalogService {
  private static Product product(long id, String name) {
    Product p = new Product();
    p.setId(id);
    p.setName(name);
    p.setPrice(new BigDecimal("19.99"));
    p.setColor(Color.BLUE);
    p.setStock(7);
    p.setTags(Arrays.asList("new", "sale"));
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("material", "oak");
    p.setAttributes(attributes);
    p.setAlsoIn(new HashSet<>(Collections.singleton(Color.RED)));
    Dimensions d = new Dimensions();
    d.setWidth(1.5);
    d.setHeight(2.25);
    p.setDimensions(d);
    p.setCreatedAt(new Date(1700000000000L));
    p.setRatings(new int[] {5, 4});
    return p;
  }

  @Override
  public Product find(long id) throws NotFoundException {
    if (id <= 0) throw new NotFoundException("no product " + id);
    return product(id, "chair");
  }

  /** Echoes the product with a Java-side mark, so a round trip proves every field was read. */
  @Override
  public Product save(Product product) {
    product.setName(product.getName() + " (saved by Java: " + product.getClass().getName() + ", price "
        + product.getPrice().getClass().getSimpleName() + " " + product.getPrice() + ", color "
        + product.getColor().getClass().getSimpleName() + " " + product.getColor() + ", dimensions "
        + product.getDimensions().getClass().getSimpleName() + ")");
    product.setId(product.getId() + 1);
    return product;
  }

  @Override
  public List<Product> search(String text, Set<Color> colors) {
    List<Product> out = new ArrayList<>();
    for (Color color : colors) {
      Product p = product(out.size() + 1, text + "-" + color.name());
      p.setColor(color);
      out.add(p);
    }
    return out;
  }

  @Override
  public Map<String, Product> byName(List<String> names) {
    Map<String, Product> out = new LinkedHashMap<>();
    for (String name : names) out.put(name, product(name.length(), name));
    return out;
  }

  @Override
  public String describe(int i, long l, short s, byte b, float f, double d, boolean z, char c) {
    return i + " " + l + " " + s + " " + b + " " + f + " " + d + " " + z + " " + c;
  }

  @Override
  public String describeBoxed(Integer i, Long l, Double d, Boolean z) {
    return i.getClass().getSimpleName() + "=" + i + " " + l.getClass().getSimpleName() + "=" + l + " "
        + d.getClass().getSimpleName() + "=" + d + " " + z.getClass().getSimpleName() + "=" + z;
  }

  @Override
  public BigDecimal total(BigDecimal[] prices) {
    BigDecimal sum = BigDecimal.ZERO;
    for (BigDecimal p : prices) sum = sum.add(p);
    return sum;
  }

  @Override
  public int[] lengths(String[] words) {
    int[] out = new int[words.length];
    for (int i = 0; i < words.length; i++) out[i] = words[i].length();
    return out;
  }

  @Override
  public Date shift(Date date, int days) {
    return new Date(date.getTime() + days * 86_400_000L);
  }

  @Override
  public byte[] reverse(byte[] data) {
    byte[] out = new byte[data.length];
    for (int i = 0; i < data.length; i++) out[i] = data[data.length - 1 - i];
    return out;
  }

  @Override
  public Color next(Color color) {
    return Color.values()[(color.ordinal() + 1) % Color.values().length];
  }

  @Override
  public void touch(long id) throws NotFoundException {
    if (id <= 0) throw new NotFoundException("no product " + id);
  }

  @Override
  public int count() {
    return 3;
  }

  @Override
  public int count(String name) {
    return name.length();
  }

  @Override
  public int count(String name, boolean inStock) {
    return inStock ? name.length() * 10 : 0;
  }
}
