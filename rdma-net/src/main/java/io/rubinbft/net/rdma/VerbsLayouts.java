package io.rubinbft.net.rdma;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.StructLayout;

/**
 * The rdma-core structs this binding reads and writes, as FFM layouts, and the constants it uses.
 *
 * <p>Every size and offset below was checked by hand against rdma-core 44.0 (Debian bookworm's
 * libibverbs-dev and librdmacm-dev, x86-64) with a small offsetof/sizeof program; {@code
 * VerbsLayoutsTest} pins the same numbers so a layout edit cannot drift silently. rdma-core keeps
 * these structs ABI-stable (the verbs library is versioned IBVERBS_1.1 since 2017). Structs this
 * binding only passes around by pointer are described up to the last field it touches; unused parts
 * are padding.
 */
final class VerbsLayouts {

  /** struct ibv_sge: size 16; addr 0, length 8, lkey 12. */
  static final StructLayout IBV_SGE =
      structLayout(
          JAVA_LONG.withName("addr"), JAVA_INT.withName("length"), JAVA_INT.withName("lkey"));

  /**
   * struct ibv_send_wr: size 128; wr_id 0, next 8, sg_list 16, num_sge 24, opcode 28, send_flags
   * 32, imm_data 36, the rdma/atomic/ud union 40 (32 bytes), then the xrc and bind_mw/tso unions.
   */
  static final StructLayout IBV_SEND_WR =
      structLayout(
          JAVA_LONG.withName("wr_id"),
          ADDRESS.withName("next"),
          ADDRESS.withName("sg_list"),
          JAVA_INT.withName("num_sge"),
          JAVA_INT.withName("opcode"),
          JAVA_INT.withName("send_flags"),
          JAVA_INT.withName("imm_data"),
          paddingLayout(32).withName("wr"),
          paddingLayout(56));

  /** struct ibv_recv_wr: size 32; wr_id 0, next 8, sg_list 16, num_sge 24. */
  static final StructLayout IBV_RECV_WR =
      structLayout(
          JAVA_LONG.withName("wr_id"),
          ADDRESS.withName("next"),
          ADDRESS.withName("sg_list"),
          JAVA_INT.withName("num_sge"),
          paddingLayout(4));

  /**
   * struct ibv_wc: size 48; wr_id 0, status 8, opcode 12, vendor_err 16, byte_len 20, imm_data 24,
   * qp_num 28, src_qp 32, wc_flags 36, pkey_index 40, slid 42, sl 44, dlid_path_bits 45.
   */
  static final StructLayout IBV_WC =
      structLayout(
          JAVA_LONG.withName("wr_id"),
          JAVA_INT.withName("status"),
          JAVA_INT.withName("opcode"),
          JAVA_INT.withName("vendor_err"),
          JAVA_INT.withName("byte_len"),
          JAVA_INT.withName("imm_data"),
          JAVA_INT.withName("qp_num"),
          JAVA_INT.withName("src_qp"),
          JAVA_INT.withName("wc_flags"),
          JAVA_SHORT.withName("pkey_index"),
          JAVA_SHORT.withName("slid"),
          JAVA_BYTE.withName("sl"),
          JAVA_BYTE.withName("dlid_path_bits"),
          paddingLayout(2));

  /**
   * struct ibv_qp_cap: size 20; max_send_wr 0, max_recv_wr 4, max_send_sge 8, max_recv_sge 12,
   * max_inline_data 16.
   */
  static final StructLayout IBV_QP_CAP =
      structLayout(
          JAVA_INT.withName("max_send_wr"),
          JAVA_INT.withName("max_recv_wr"),
          JAVA_INT.withName("max_send_sge"),
          JAVA_INT.withName("max_recv_sge"),
          JAVA_INT.withName("max_inline_data"));

  /**
   * struct ibv_qp_init_attr: size 64; qp_context 0, send_cq 8, recv_cq 16, srq 24, cap 32, qp_type
   * 52, sq_sig_all 56.
   */
  static final StructLayout IBV_QP_INIT_ATTR =
      structLayout(
          ADDRESS.withName("qp_context"),
          ADDRESS.withName("send_cq"),
          ADDRESS.withName("recv_cq"),
          ADDRESS.withName("srq"),
          IBV_QP_CAP.withName("cap"),
          JAVA_INT.withName("qp_type"),
          JAVA_INT.withName("sq_sig_all"),
          paddingLayout(4));

  /**
   * struct ibv_context_ops: size 256; poll_cq 88, req_notify_cq 96, post_send 200, post_recv 208.
   * These four are what verbs.h's static inline ibv_poll_cq, ibv_req_notify_cq, ibv_post_send and
   * ibv_post_recv call.
   */
  static final StructLayout IBV_CONTEXT_OPS =
      structLayout(
          paddingLayout(88),
          ADDRESS.withName("poll_cq"),
          ADDRESS.withName("req_notify_cq"),
          paddingLayout(96),
          ADDRESS.withName("post_send"),
          ADDRESS.withName("post_recv"),
          paddingLayout(40));

  /** struct ibv_context: device 0, ops 8 (256 bytes), cmd_fd 264; size 328. */
  static final StructLayout IBV_CONTEXT =
      structLayout(
          ADDRESS.withName("device"),
          IBV_CONTEXT_OPS.withName("ops"),
          JAVA_INT.withName("cmd_fd"),
          paddingLayout(60));

  /** struct ibv_cq: context 0; size 128. */
  static final StructLayout IBV_CQ = structLayout(ADDRESS.withName("context"), paddingLayout(120));

  /** struct ibv_qp: context 0, qp_num 52, state 56; size 160. */
  static final StructLayout IBV_QP =
      structLayout(
          ADDRESS.withName("context"),
          paddingLayout(44),
          JAVA_INT.withName("qp_num"),
          JAVA_INT.withName("state"),
          paddingLayout(100));

  /** struct ibv_mr: lkey 36, rkey 40 (never read: no remote access is granted); size 48. */
  static final StructLayout IBV_MR =
      structLayout(
          paddingLayout(36),
          JAVA_INT.withName("lkey"),
          JAVA_INT.withName("rkey"),
          paddingLayout(4));

  /**
   * struct rdma_conn_param: size 24; private_data 0, private_data_len 8, responder_resources 9,
   * initiator_depth 10, flow_control 11, retry_count 12, rnr_retry_count 13, srq 14, qp_num 16.
   */
  static final StructLayout RDMA_CONN_PARAM =
      structLayout(
          ADDRESS.withName("private_data"),
          JAVA_BYTE.withName("private_data_len"),
          JAVA_BYTE.withName("responder_resources"),
          JAVA_BYTE.withName("initiator_depth"),
          JAVA_BYTE.withName("flow_control"),
          JAVA_BYTE.withName("retry_count"),
          JAVA_BYTE.withName("rnr_retry_count"),
          JAVA_BYTE.withName("srq"),
          paddingLayout(1),
          JAVA_INT.withName("qp_num"),
          paddingLayout(4));

  /**
   * struct rdma_cm_event: size 80; id 0, listen_id 8, event 16, status 20, param 24 (a 56-byte
   * union whose conn member is a struct rdma_conn_param).
   */
  static final StructLayout RDMA_CM_EVENT =
      structLayout(
          ADDRESS.withName("id"),
          ADDRESS.withName("listen_id"),
          JAVA_INT.withName("event"),
          JAVA_INT.withName("status"),
          RDMA_CONN_PARAM.withName("conn"),
          paddingLayout(32));

  /** struct rdma_cm_id: verbs 0, channel 8, context 16, qp 24; size 416. */
  static final StructLayout RDMA_CM_ID =
      structLayout(
          ADDRESS.withName("verbs"),
          ADDRESS.withName("channel"),
          ADDRESS.withName("context"),
          ADDRESS.withName("qp"),
          paddingLayout(256), // route.addr: src_addr, dst_addr (sockaddr_storage each)
          sequenceLayout(16, JAVA_BYTE).withName("sgid"), // route.addr.addr.ibaddr.sgid
          paddingLayout(40), // dgid, pkey, path_rec, num_paths
          JAVA_INT.withName("ps"),
          JAVA_BYTE.withName("port_num"),
          paddingLayout(67));

  /** struct ibv_comp_channel: context 0, fd 8, refcnt 12; size 16. */
  static final StructLayout IBV_COMP_CHANNEL =
      structLayout(
          ADDRESS.withName("context"), JAVA_INT.withName("fd"), JAVA_INT.withName("refcnt"));

  /** struct rdma_event_channel: fd 0; size 4. */
  static final StructLayout RDMA_EVENT_CHANNEL = structLayout(JAVA_INT.withName("fd"));

  // enum values, checked with the same program
  static final int IBV_WR_SEND = 2;
  static final int IBV_SEND_SIGNALED = 2;
  static final int IBV_SEND_INLINE = 8;
  static final int IBV_QPT_RC = 2;
  static final int IBV_ACCESS_LOCAL_WRITE = 1;
  static final int IBV_WC_RECV = 128;
  static final int RDMA_PS_TCP = 0x106;

  static final int IBV_WC_SUCCESS = 0;
  static final int IBV_WC_LOC_LEN_ERR = 1;
  static final int IBV_WC_WR_FLUSH_ERR = 5;
  static final int IBV_WC_REM_INV_REQ_ERR = 9;
  static final int IBV_WC_RETRY_EXC_ERR = 12;
  static final int IBV_WC_RNR_RETRY_EXC_ERR = 13;

  static final int RDMA_CM_EVENT_ADDR_ERROR = 1;
  static final int RDMA_CM_EVENT_ROUTE_ERROR = 3;
  static final int RDMA_CM_EVENT_CONNECT_REQUEST = 4;
  static final int RDMA_CM_EVENT_CONNECT_ERROR = 6;
  static final int RDMA_CM_EVENT_UNREACHABLE = 7;
  static final int RDMA_CM_EVENT_REJECTED = 8;
  static final int RDMA_CM_EVENT_ESTABLISHED = 9;
  static final int RDMA_CM_EVENT_DISCONNECTED = 10;
  static final int RDMA_CM_EVENT_DEVICE_REMOVAL = 11;

  private VerbsLayouts() {}

  /** The byte offset of {@code field} (a dotted path through nested structs) in {@code layout}. */
  static long offset(MemoryLayout layout, String field) {
    String[] names = field.split("\\.", -1);
    PathElement[] path = new PathElement[names.length];
    for (int i = 0; i < names.length; i++) {
      path[i] = PathElement.groupElement(names[i]);
    }
    return layout.byteOffset(path);
  }
}
