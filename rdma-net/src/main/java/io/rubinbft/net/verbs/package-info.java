/**
 * The narrow verbs interface the RUBIN layer runs on: registered memory, reliable-connected queue
 * pairs with two-sided send/receive, completion queues, and an rdma_cm-like connection manager.
 *
 * <p>Three bindings implement it: rdma-core through Java's Foreign Function and Memory API (real
 * RDMA), DiSNI (the seeds' stack), and {@code shm}, a software emulation with the same queue-pair
 * semantics between processes on one host. The ring, credit and framing logic above it is written
 * once against these interfaces.
 *
 * <p>Semantics every binding keeps, as RDMA's RC transport does:
 *
 * <ul>
 *   <li>A send consumes exactly one posted receive at the peer, in order; a message lands in the
 *       buffer of that receive. A send that finds no posted receive is retried by the binding up to
 *       its receiver-not-ready limit and then fails the queue pair ({@link
 *       CompletionStatus#RECEIVER_NOT_READY}); the layer above must never let that happen.
 *   <li>Completions of one queue are delivered in posting order. Unsignaled sends produce no
 *       completion; a signaled send's completion also retires every earlier unsignaled send.
 *   <li>Posting and polling never block and never allocate on the data path: work requests are
 *       pre-built lists owned by the queue pair, filled in place and posted as one batch. A poller
 *       with nothing to do may sleep through the device's {@link EventChannel}, where it has one
 *       (shm's doorbell, rdma-core's completion and rdma_cm event channels; not DiSNI); the data
 *       path never waits.
 * </ul>
 */
package io.rubinbft.net.verbs;
