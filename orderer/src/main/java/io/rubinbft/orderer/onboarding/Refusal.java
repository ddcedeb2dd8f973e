package io.rubinbft.orderer.onboarding;

import java.util.Locale;

/**
 * Why a pulled block was discarded.
 *
 * @param check the check it failed
 * @param message what exactly was wrong, e.g. "block 7 has 2 valid consenter signatures [1, 4] but
 *     needs 3 of 4"
 */
public record Refusal(Check check, String message) {

  /** The checks a pulled block goes through, in the order they are made. */
  public enum Check {
    /** The block is not the one asked for next (the puller's own check). */
    OUT_OF_ORDER,
    /** Fewer valid consenter signatures than a quorum of the consenter set in force. */
    SIGNATURES,
    /** The block names another config block as its last config than the one in force. */
    LAST_CONFIG,
    /** A config block that holds no valid config of this channel (block 0 included). */
    CONFIG,
    /** The ledger's append checks: number, previous hash, data hash. */
    CHAIN;

    /** The name as a metric label: {@code out_of_order}, {@code signatures}, ... */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
