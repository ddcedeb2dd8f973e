package io.rubinbft.net.rdma;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * The rdma-core functions this binding calls: exported functions of libibverbs and librdmacm looked
 * up by name, and handles for the data-path verbs, which verbs.h defines static inline and which
 * are therefore called through the function pointers in {@code struct ibv_context}'s ops.
 */
final class RdmaCore {

  // The data-path handles are "critical": these calls are short and never block (a doorbell
  // write at most), so the thread-state transition of an ordinary downcall is skipped.

  /** int (*post_send)(struct ibv_qp *, struct ibv_send_wr *, struct ibv_send_wr **bad). */
  static final MethodHandle POST_SEND =
      NativeCalls.LINKER.downcallHandle(
          FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS),
          Linker.Option.critical(false));

  /** int (*post_recv)(struct ibv_qp *, struct ibv_recv_wr *, struct ibv_recv_wr **bad). */
  static final MethodHandle POST_RECV = POST_SEND;

  /** int (*poll_cq)(struct ibv_cq *, int num_entries, struct ibv_wc *). */
  static final MethodHandle POLL_CQ =
      NativeCalls.LINKER.downcallHandle(
          FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS),
          Linker.Option.critical(false));

  /**
   * int (*req_notify_cq)(struct ibv_cq *, int solicited_only): asks for an event on the completion
   * channel at the queue's next completion. Not critical: a provider may make a system call (rxe
   * does).
   */
  static final MethodHandle REQ_NOTIFY_CQ =
      NativeCalls.LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));

  final MethodHandle allocPd;
  final MethodHandle deallocPd;
  final MethodHandle createCq;
  final MethodHandle destroyCq;
  final CompletionChannelCalls completionChannel;
  final MethodHandle regMr;
  final MethodHandle deregMr;
  final MethodHandle getDeviceName;
  final MethodHandle getDevices;
  final MethodHandle freeDevices;
  final MethodHandle createEventChannel;
  final MethodHandle destroyEventChannel;
  final MethodHandle createId;
  final MethodHandle destroyId;
  final MethodHandle migrateId;
  final MethodHandle bindAddr;
  final MethodHandle listen;
  final MethodHandle getSrcPort;
  final MethodHandle resolveAddr;
  final MethodHandle resolveRoute;
  final MethodHandle createQp;
  final MethodHandle destroyQp;
  final MethodHandle connect;
  final MethodHandle accept;
  final MethodHandle reject;
  final MethodHandle disconnect;
  final MethodHandle getCmEvent;
  final MethodHandle ackCmEvent;
  final MethodHandle eventStr;

  private RdmaCore(SymbolLookup verbs, SymbolLookup cm) {
    FunctionDescriptor intOfPointer = FunctionDescriptor.of(JAVA_INT, ADDRESS);
    FunctionDescriptor voidOfPointer = FunctionDescriptor.ofVoid(ADDRESS);
    FunctionDescriptor pointerOfPointer = FunctionDescriptor.of(ADDRESS, ADDRESS);
    allocPd = NativeCalls.settingErrno(verbs, "ibv_alloc_pd", pointerOfPointer);
    deallocPd = NativeCalls.plain(verbs, "ibv_dealloc_pd", intOfPointer);
    createCq =
        NativeCalls.settingErrno(
            verbs,
            "ibv_create_cq",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    destroyCq = NativeCalls.plain(verbs, "ibv_destroy_cq", intOfPointer);
    completionChannel = CompletionChannelCalls.lookUp(verbs);
    regMr =
        NativeCalls.settingErrno(
            verbs,
            "ibv_reg_mr",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));
    deregMr = NativeCalls.plain(verbs, "ibv_dereg_mr", intOfPointer);
    getDeviceName = NativeCalls.plain(verbs, "ibv_get_device_name", pointerOfPointer);
    getDevices = NativeCalls.settingErrno(cm, "rdma_get_devices", pointerOfPointer);
    freeDevices = NativeCalls.plain(cm, "rdma_free_devices", voidOfPointer);
    createEventChannel =
        NativeCalls.settingErrno(cm, "rdma_create_event_channel", FunctionDescriptor.of(ADDRESS));
    destroyEventChannel = NativeCalls.plain(cm, "rdma_destroy_event_channel", voidOfPointer);
    createId =
        NativeCalls.settingErrno(
            cm,
            "rdma_create_id",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
    destroyId = NativeCalls.settingErrno(cm, "rdma_destroy_id", intOfPointer);
    FunctionDescriptor intOfTwoPointers = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
    migrateId = NativeCalls.settingErrno(cm, "rdma_migrate_id", intOfTwoPointers);
    bindAddr = NativeCalls.settingErrno(cm, "rdma_bind_addr", intOfTwoPointers);
    FunctionDescriptor intOfPointerAndInt = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT);
    listen = NativeCalls.settingErrno(cm, "rdma_listen", intOfPointerAndInt);
    getSrcPort =
        NativeCalls.plain(cm, "rdma_get_src_port", FunctionDescriptor.of(JAVA_SHORT, ADDRESS));
    resolveAddr =
        NativeCalls.settingErrno(
            cm,
            "rdma_resolve_addr",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
    resolveRoute = NativeCalls.settingErrno(cm, "rdma_resolve_route", intOfPointerAndInt);
    createQp =
        NativeCalls.settingErrno(
            cm, "rdma_create_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    destroyQp = NativeCalls.plain(cm, "rdma_destroy_qp", voidOfPointer);
    connect = NativeCalls.settingErrno(cm, "rdma_connect", intOfTwoPointers);
    accept = NativeCalls.settingErrno(cm, "rdma_accept", intOfTwoPointers);
    reject =
        NativeCalls.settingErrno(
            cm, "rdma_reject", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_BYTE));
    disconnect = NativeCalls.settingErrno(cm, "rdma_disconnect", intOfPointer);
    getCmEvent = NativeCalls.settingErrno(cm, "rdma_get_cm_event", intOfTwoPointers);
    ackCmEvent = NativeCalls.settingErrno(cm, "rdma_ack_cm_event", intOfPointer);
    eventStr = NativeCalls.plain(cm, "rdma_event_str", FunctionDescriptor.of(ADDRESS, JAVA_INT));
  }

  /**
   * rdma-core's completion channel: {@code ibv_create_comp_channel}, {@code
   * ibv_destroy_comp_channel}, {@code ibv_get_cq_event} (errno captured) and {@code
   * ibv_ack_cq_events}.
   */
  record CompletionChannelCalls(
      MethodHandle create, MethodHandle destroy, MethodHandle getEvent, MethodHandle ackEvents) {

    static CompletionChannelCalls lookUp(SymbolLookup verbs) {
      return new CompletionChannelCalls(
          NativeCalls.settingErrno(
              verbs, "ibv_create_comp_channel", FunctionDescriptor.of(ADDRESS, ADDRESS)),
          NativeCalls.plain(
              verbs, "ibv_destroy_comp_channel", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
          NativeCalls.settingErrno(
              verbs,
              "ibv_get_cq_event",
              FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
          NativeCalls.plain(
              verbs, "ibv_ack_cq_events", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT)));
    }
  }

  /** Loads both libraries into {@code arena}; unloaded when the arena closes. */
  static RdmaCore load(RdmaOptions options, Arena arena) throws RdmaUnavailableException {
    SymbolLookup verbs =
        library(
            options.verbsLibrary(),
            "rdma-core's verbs library",
            "libibverbs1 and ibverbs-providers",
            arena);
    SymbolLookup cm =
        library(
            options.connectionManagerLibrary(),
            "rdma-core's connection manager library",
            "librdmacm1",
            arena);
    return new RdmaCore(verbs, cm);
  }

  private static SymbolLookup library(
      String name, String whatItIs, String debianPackages, Arena arena)
      throws RdmaUnavailableException {
    try {
      return name.contains("/")
          ? SymbolLookup.libraryLookup(Path.of(name), arena)
          : SymbolLookup.libraryLookup(name, arena);
    } catch (IllegalArgumentException e) {
      throw new RdmaUnavailableException(
          name
              + " ("
              + whatItIs
              + ") is not installed or cannot be loaded; install rdma-core's userspace (Debian"
              + " and Ubuntu: apt-get install "
              + debianPackages
              + ")");
    }
  }
}
