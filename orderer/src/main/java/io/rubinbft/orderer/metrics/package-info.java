/**
 * Every Prometheus metric the orderer exports, defined here and nowhere else (docs/METRICS.md lists
 * them). Names follow Fabric's orderer where the meaning matches. Hot paths (Broadcast, Deliver,
 * decisions) update counters and histograms through small methods; everything that already exists
 * as state (ledger heights, replica status, network counters) is read at scrape time through
 * callbacks, so the code that owns that state needs no metric code.
 */
package io.rubinbft.orderer.metrics;
