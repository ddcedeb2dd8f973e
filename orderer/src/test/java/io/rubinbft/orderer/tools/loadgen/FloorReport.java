package io.rubinbft.orderer.tools.loadgen;

import java.io.PrintStream;

/**
 * The per-transaction CPU floor of the design from measured parts: every item's CPU per
 * unit, how many of it one transaction costs, and the sums, against the budget.
 *
 * @param signMicros a client builds and signs one envelope
 * @param verifyMicros one ECDSA verify of an envelope (once per orderer, at ingress)
 * @param validateMicros a node's whole Broadcast check of one envelope (includes the verify)
 * @param blockSignMicros one ECDSA signature over a block's signed bytes
 * @param broadcast gRPC + TLS per transaction, sent to every orderer
 * @param deliver gRPC + TLS per whole block of {@link TransactionFloorBenchmark#BLOCK_TRANSACTIONS}
 * @param orderers how many orderers each transaction goes to
 * @param quorum how many consenter signatures a client checks on each block
 * @param budgetMicros CPU per transaction the target rate allows
 */
record FloorReport(
    double signMicros,
    double verifyMicros,
    double validateMicros,
    double blockSignMicros,
    TransportCosts.Cost broadcast,
    TransportCosts.Cost deliver,
    int orderers,
    int quorum,
    double budgetMicros) {

  /** Prints the items and the floor with {@code coresMicros} of CPU per second to spend. */
  void print(PrintStream out, double coresMicros) {
    double perBlock = 1.0 / TransactionFloorBenchmark.BLOCK_TRANSACTIONS;
    out.printf("%-55s %8s  %-8s %5s %8s%n", "item", "CPU us", "per", "x/tx", "us/tx");
    Sum floor = new Sum(out);
    floor.add("client: build + sign envelope (ECDSA P-256)", signMicros, "tx", 1);
    floor.add("client: Broadcast to all orderers (gRPC+TLS)", broadcast.clientMicros(), "tx", 1);
    floor.add("orderers: Broadcast in + SUCCESS out (gRPC+TLS)", broadcast.serverMicros(), "tx", 1);
    floor.add("orderer: ECDSA P-256 verify at ingress", verifyMicros, "envelope", orderers);
    out.printf(
        "  (per envelope: client %.1f us, orderer %.1f us; transport alone ran at %,.0f tx/s)%n",
        broadcast.clientMicros() / orderers,
        broadcast.serverMicros() / orderers,
        broadcast.perSecond());
    total(out, "FLOOR per transaction", floor.micros, coresMicros);
    floor.add("orderer: sign each block", blockSignMicros, "block", orderers * perBlock);
    floor.add(
        "client: verify a quorum of block signatures", verifyMicros, "block", quorum * perBlock);
    floor.add(
        "client: Deliver of a whole block (gRPC+TLS)", deliver.clientMicros(), "block", perBlock);
    floor.add(
        "orderer: Deliver of a whole block (gRPC+TLS)", deliver.serverMicros(), "block", perBlock);
    total(out, "FLOOR with per-block items", floor.micros, coresMicros);
    floor.add(
        "orderer: whole validation minus the verify above",
        validateMicros - verifyMicros,
        "envelope",
        orderers);
    total(out, "FLOOR with per-block items and whole validation", floor.micros, coresMicros);
  }

  private void total(PrintStream out, String what, double micros, double coresMicros) {
    String room =
        micros <= budgetMicros
            ? String.format(
                "%.1f us/tx (%.0f%%) left",
                budgetMicros - micros, 100 * (budgetMicros - micros) / budgetMicros)
            : String.format("over by %.1f us/tx", micros - budgetMicros);
    out.printf(
        "= %-75s %8.1f us/tx%n    -> at most %,.0f tx/s on 2 cores; budget %.0f us/tx: %s%n",
        what, micros, coresMicros / micros, budgetMicros, room);
  }

  /** Rows printed as they are added, and their running total per transaction. */
  private static final class Sum {

    private final PrintStream out;
    private double micros;

    Sum(PrintStream out) {
      this.out = out;
    }

    void add(String item, double unitMicros, String per, double timesPerTransaction) {
      out.printf(
          "%-55s %8.1f  %-8s %5.2f %8.1f%n",
          item, unitMicros, per, timesPerTransaction, unitMicros * timesPerTransaction);
      micros += unitMicros * timesPerTransaction;
    }
  }
}
