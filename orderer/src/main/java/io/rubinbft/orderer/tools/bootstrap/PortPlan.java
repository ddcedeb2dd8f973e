package io.rubinbft.orderer.tools.bootstrap;

import java.util.ArrayList;
import java.util.List;

/**
 * The first port of each kind on loopback; node i (from 1) listens on {@code base + i - 1}. The
 * defaults follow the fixtures' network: Broadcast/Deliver 7050, cluster (consenter mapping) 7150,
 * channel participation (osnadmin) 7250, and operations 8443 as in Fabric's orderer.yaml.
 */
public record PortPlan(int broadcast, int cluster, int admin, int operations) {

  public static final PortPlan DEFAULT = new PortPlan(7050, 7150, 7250, 8443);

  /** Every port moved by {@code offset}, so a second cluster can run beside the first. */
  public PortPlan shifted(int offset) {
    return new PortPlan(broadcast + offset, cluster + offset, admin + offset, operations + offset);
  }

  /** Checks that n nodes fit below 65536 and that no two kinds of port overlap. */
  void check(int nodes) {
    List<int[]> ranges = new ArrayList<>();
    for (int base : List.of(broadcast, cluster, admin, operations)) {
      if (base < 1 || base + nodes - 1 > 65_535) {
        throw new IllegalArgumentException(
            "ports " + base + ".." + (base + nodes - 1) + " are not all TCP ports");
      }
      for (int[] other : ranges) {
        if (base <= other[1] && other[0] <= base + nodes - 1) {
          throw new IllegalArgumentException(
              "ports "
                  + base
                  + ".."
                  + (base + nodes - 1)
                  + " overlap "
                  + other[0]
                  + ".."
                  + other[1]);
        }
      }
      ranges.add(new int[] {base, base + nodes - 1});
    }
  }
}
