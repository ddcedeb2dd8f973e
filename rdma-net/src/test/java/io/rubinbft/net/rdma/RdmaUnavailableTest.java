package io.rubinbft.net.rdma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Where rdma cannot run, opening the device says what is missing and what to use instead. */
class RdmaUnavailableTest {

  @Test
  void namesTheMissingVerbsLibraryAndTheAlternatives() {
    RdmaOptions options =
        RdmaOptions.defaults().withLibraries("/nonexistent/libibverbs.so.1", "librdmacm.so.1");
    assertThatThrownBy(() -> FfmVerbsDevice.open(options))
        .isInstanceOf(RdmaUnavailableException.class)
        .hasMessageStartingWith(
            "rdma transport unavailable: /nonexistent/libibverbs.so.1 (rdma-core's verbs library)"
                + " is not installed or cannot be loaded; install rdma-core's userspace")
        .hasMessageEndingWith(
            "choose transport tcp (any network) or shm (processes on one host) instead");
  }

  @Test
  void namesTheMissingConnectionManagerLibrary() {
    RdmaOptions options =
        RdmaOptions.defaults().withLibraries("libibverbs.so.1", "/nonexistent/librdmacm.so.1");
    Assumptions.assumeTrue(verbsLibraryInstalled(), "libibverbs.so.1 is not installed here");
    assertThatThrownBy(() -> FfmVerbsDevice.open(options))
        .isInstanceOf(RdmaUnavailableException.class)
        .hasMessageContaining("/nonexistent/librdmacm.so.1 (rdma-core's connection manager")
        .hasMessageContaining("apt-get install librdmacm1")
        .hasMessageContaining("choose transport tcp");
  }

  @Test
  void saysNoDeviceIsFoundOnAHostWithoutRdma() {
    VerbsException failure = openDefault();
    Assumptions.assumeTrue(failure != null, "this host has a usable RDMA device");
    assertThat(failure).isInstanceOf(RdmaUnavailableException.class);
    assertThat(failure.getMessage())
        .endsWith("choose transport tcp (any network) or shm (processes on one host) instead")
        .satisfiesAnyOf(
            message ->
                assertThat(message)
                    .contains("no RDMA device found", "rdma link add rxe0 type rxe netdev"),
            message -> assertThat(message).contains("libibverbs.so.1", "is not installed"));
  }

  private static VerbsException openDefault() {
    try (FfmVerbsDevice _ = FfmVerbsDevice.open(RdmaOptions.defaults())) {
      return null;
    } catch (VerbsException e) {
      return e;
    }
  }

  private static boolean verbsLibraryInstalled() {
    try (Arena arena = Arena.ofConfined()) {
      SymbolLookup.libraryLookup("libibverbs.so.1", arena);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
