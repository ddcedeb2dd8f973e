package io.rubinbft.net.rdma;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.StructLayout;
import org.junit.jupiter.api.Test;

/**
 * Pins every struct size and field offset the binding uses to the numbers read off rdma-core 44.0's
 * headers (Debian bookworm, x86-64) with an offsetof/sizeof program; see RDMA.md.
 */
class VerbsLayoutsTest {

  @Test
  void workRequestsAndScatterGatherMatchVerbsH() {
    assertLayout(VerbsLayouts.IBV_SGE, 16, "addr", 0, "length", 8, "lkey", 12);
    assertLayout(
        VerbsLayouts.IBV_SEND_WR,
        128,
        "wr_id",
        0,
        "next",
        8,
        "sg_list",
        16,
        "num_sge",
        24,
        "opcode",
        28,
        "send_flags",
        32,
        "imm_data",
        36,
        "wr",
        40);
    assertLayout(VerbsLayouts.IBV_RECV_WR, 32, "wr_id", 0, "next", 8, "sg_list", 16, "num_sge", 24);
  }

  @Test
  void workCompletionMatchesVerbsH() {
    assertLayout(
        VerbsLayouts.IBV_WC,
        48,
        "wr_id",
        0,
        "status",
        8,
        "opcode",
        12,
        "vendor_err",
        16,
        "byte_len",
        20,
        "qp_num",
        28);
  }

  @Test
  void queuePairAttributesMatchVerbsH() {
    assertLayout(
        VerbsLayouts.IBV_QP_CAP,
        20,
        "max_send_wr",
        0,
        "max_recv_wr",
        4,
        "max_send_sge",
        8,
        "max_recv_sge",
        12,
        "max_inline_data",
        16);
    assertLayout(
        VerbsLayouts.IBV_QP_INIT_ATTR,
        64,
        "qp_context",
        0,
        "send_cq",
        8,
        "recv_cq",
        16,
        "srq",
        24,
        "cap",
        32,
        "qp_type",
        52,
        "sq_sig_all",
        56);
  }

  @Test
  void dataPathFunctionPointersMatchVerbsH() {
    assertLayout(
        VerbsLayouts.IBV_CONTEXT_OPS,
        256,
        "poll_cq",
        88,
        "req_notify_cq",
        96,
        "post_send",
        200,
        "post_recv",
        208);
    assertLayout(VerbsLayouts.IBV_CONTEXT, 328, "device", 0, "ops", 8, "cmd_fd", 264);
    assertThat(VerbsLayouts.offset(VerbsLayouts.IBV_CONTEXT, "ops.post_send")).isEqualTo(208);
  }

  @Test
  void objectsReadThroughPointersMatchVerbsH() {
    assertLayout(VerbsLayouts.IBV_CQ, 128, "context", 0);
    assertLayout(VerbsLayouts.IBV_QP, 160, "context", 0, "qp_num", 52, "state", 56);
    assertLayout(VerbsLayouts.IBV_MR, 48, "lkey", 36, "rkey", 40);
    assertLayout(VerbsLayouts.IBV_COMP_CHANNEL, 16, "context", 0, "fd", 8, "refcnt", 12);
  }

  @Test
  void pollDescriptorMatchesPollH() {
    assertLayout(Libc.POLLFD, 8, "fd", 0, "events", 4, "revents", 6);
  }

  @Test
  void connectionManagerStructsMatchRdmaCmaH() {
    assertLayout(
        VerbsLayouts.RDMA_CONN_PARAM,
        24,
        "private_data",
        0,
        "private_data_len",
        8,
        "responder_resources",
        9,
        "initiator_depth",
        10,
        "flow_control",
        11,
        "retry_count",
        12,
        "rnr_retry_count",
        13,
        "srq",
        14,
        "qp_num",
        16);
    assertLayout(
        VerbsLayouts.RDMA_CM_EVENT,
        80,
        "id",
        0,
        "listen_id",
        8,
        "event",
        16,
        "status",
        20,
        "conn",
        24);
    // sgid: route (32) .addr .addr.ibaddr after two sockaddr_storage (2 x 128); port_num after
    // route (312 bytes: rdma_addr 296, path_rec, num_paths) and the port space enum
    assertLayout(
        VerbsLayouts.RDMA_CM_ID,
        416,
        "verbs",
        0,
        "channel",
        8,
        "context",
        16,
        "qp",
        24,
        "sgid",
        288,
        "ps",
        344,
        "port_num",
        348);
    assertLayout(VerbsLayouts.RDMA_EVENT_CHANNEL, 4, "fd", 0);
  }

  /** {@code fieldsAndOffsets}: name, offset, name, offset, ... */
  private static void assertLayout(StructLayout layout, long size, Object... fieldsAndOffsets) {
    assertThat(layout.byteSize()).as("sizeof").isEqualTo(size);
    for (int i = 0; i < fieldsAndOffsets.length; i += 2) {
      String field = (String) fieldsAndOffsets[i];
      assertThat(VerbsLayouts.offset(layout, field))
          .as("offsetof(%s)", field)
          .isEqualTo(((Integer) fieldsAndOffsets[i + 1]).longValue());
    }
  }
}
