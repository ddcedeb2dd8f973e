package io.rubinbft.net.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The checks every binding's work request list makes when an entry is set, and what it keeps. */
class WorkRequestListTest {

  private static final int INLINE_LIMIT = 64;

  private final Arena arena = Arena.ofAuto();
  private final Region own = new Region(arena.allocate(4096));
  private final Requests requests = new Requests(own, 8, INLINE_LIMIT);

  @Test
  void keepsEveryEntryAsSetUntilItIsSetAgain() {
    long seed = new Random().nextLong();
    System.out.println("WorkRequestListTest seed " + seed);
    Random random = new Random(seed);
    long[] ids = new long[requests.capacity()];
    long[] offsets = new long[requests.capacity()];
    int[] lengths = new int[requests.capacity()];
    boolean[] signaled = new boolean[requests.capacity()];
    for (int round = 0; round < 1_000; round++) {
      int index = random.nextInt(requests.capacity());
      ids[index] = random.nextLong();
      lengths[index] = random.nextInt(INLINE_LIMIT * 2);
      offsets[index] = random.nextInt(4096 - lengths[index] + 1);
      signaled[index] = random.nextBoolean();
      boolean inline = lengths[index] <= INLINE_LIMIT;
      requests.set(index, ids[index], own, offsets[index], lengths[index], signaled[index], inline);

      assertThat(requests.workRequestId(index)).as("seed %d", seed).isEqualTo(ids[index]);
      assertThat(requests.memory(index)).isSameAs(own);
      assertThat(requests.offset(index)).as("seed %d", seed).isEqualTo(offsets[index]);
      assertThat(requests.length(index)).as("seed %d", seed).isEqualTo(lengths[index]);
      assertThat(requests.signaled(index)).as("seed %d", seed).isEqualTo(signaled[index]);
      assertThat(requests.inline(index)).as("seed %d", seed).isEqualTo(inline);
    }
  }

  @Test
  void refusesAnIndexOutsideTheList() {
    assertThatThrownBy(() -> requests.set(8, 1, own, 0, 16, true, false))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> requests.set(-1, 1, own, 0, 16, true, false))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void refusesBytesOutsideTheRegisteredMemory() {
    assertThatThrownBy(() -> requests.set(0, 1, own, 4090, 7, true, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bytes 4090..4097 are outside the 4096 registered bytes of " + own);
    assertThatThrownBy(() -> requests.set(0, 1, own, -1, 7, true, false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> requests.set(0, 1, own, Long.MAX_VALUE, 7, true, false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusesAnInlineSendOverTheLimitButNotOneAtIt() {
    requests.set(0, 1, own, 0, INLINE_LIMIT, true, true);

    assertThatThrownBy(() -> requests.set(0, 1, own, 0, INLINE_LIMIT + 1, true, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("inline send of 65 bytes exceeds the inline limit of 64");
  }

  @Test
  void refusesMemoryItsBindingDidNotRegisterAndKeepsTheEntryAsItWas() {
    requests.set(0, 7, own, 0, 16, true, false);
    Region foreign = new Region(arena.allocate(4096));

    assertThatThrownBy(() -> requests.set(0, 1, foreign, 0, 16, true, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(foreign + " is not this device's");
    assertThat(requests.workRequestId(0)).isEqualTo(7);
    assertThat(requests.memory(0)).isSameAs(own);
  }

  private record Region(MemorySegment segment) implements RegisteredMemory {
    @Override
    public void close() {
      // The arena frees the bytes.
    }
  }

  /** A binding that accepts one region only, as a device accepts only what it registered. */
  private static final class Requests extends WorkRequestList<Region> {
    private final Region accepted;

    Requests(Region accepted, int capacity, int inlineLimit) {
      super(capacity, inlineLimit);
      this.accepted = accepted;
    }

    @Override
    protected Region registered(RegisteredMemory memory) {
      if (memory != accepted) {
        throw new IllegalArgumentException(memory + " is not this device's");
      }
      return accepted;
    }
  }
}
