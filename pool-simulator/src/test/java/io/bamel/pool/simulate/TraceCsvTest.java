package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringWriter;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TraceCsvTest {
  /**
   * The header and rows copied unchanged from Alibaba's published
   * cluster-trace-gpu-v2023/csv/openb_pod_list_default.csv: a pod alive since the trace began, a
   * GPU share (gpu_milli 460), eight whole GPUs, a CPU-only pod and a never-scheduled Pending pod
   * (empty scheduled_time); plus the README's example of a gpu_spec with a bar.
   */
  private static final String ALIBABA =
      """
      name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
      openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0
      openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061
      openb-pod-0017,88000,327680,8,1000,,Burstable,Succeeded,9437497,10769854,9437497
      openb-pod-0048,8000,30517,0,0,,BE,Running,9992086,10013821,9992086
      openb-pod-0061,11908,47104,1,1000,,BE,Pending,10001278,10001403,
      openb-pod-0035,16000,32768,1,1000,V100M16|V100M32,LS,Running,9967058,9968575,9967063
      """;

  @Test
  void readsAlibabasPublishedLayout() throws Exception {
    PodTrace trace = TraceCsv.read(ALIBABA);

    assertThat(trace.pods()).hasSize(6);
    assertThat(trace.start()).isZero();
    assertThat(trace.end()).isEqualTo(12902960);
    PodRecord first = trace.pods().getFirst();
    assertThat(first)
        .isEqualTo(
            new PodRecord(
                "openb-pod-0000",
                0,
                OptionalLong.of(12537496),
                12000,
                16384,
                1000,
                OptionalLong.of(0),
                "Running",
                "LS"));
    assertThat(pod(trace, "openb-pod-0001").gpuMilli()).isEqualTo(460);
    assertThat(pod(trace, "openb-pod-0017").gpuMilli()).isEqualTo(8000);
    assertThat(pod(trace, "openb-pod-0048").gpuMilli()).isZero();
    PodRecord pending = pod(trace, "openb-pod-0061");
    assertThat(pending.neverScheduled()).isTrue();
    assertThat(pending.phase()).isEqualTo("Pending");
    assertThat(pending.deleted()).hasValue(10001403);
  }

  @Test
  void alibabaColumnsInAnotherOrderWithAPandasIndexAndCrlf() throws Exception {
    String csv =
        ",creation_time,deletion_time,scheduled_time,name,cpu_milli,memory_mib,num_gpu,gpu_milli,"
            + "gpu_spec,qos,pod_phase\r\n"
            + "0,100,,,p,4000,8192,2,1000,,BE,Pending\r\n";
    PodRecord pod = TraceCsv.read(csv).pods().getFirst();

    assertThat(pod.deleted()).isEmpty();
    assertThat(pod.scheduled()).isEmpty();
    assertThat(pod.gpuMilli()).isEqualTo(2000);
    assertThat(pod.deletedOr(500)).isEqualTo(500);
  }

  @Test
  void bamelLayoutWithReorderedColumnsQuotesCrlfAndBlankLines() throws Exception {
    String csv =
        "\r\n"
            + "cpu_milli,name,memory_mib,deleted,created,gpus,qos\r\n"
            + "\r\n"
            + "2500,\"train, \"\"big\"\"\",4096,90,30,0.46,\"LS\"\r\n"
            + "   \r\n"
            + "1000,web,512,,10,,\r\n";
    PodTrace trace = TraceCsv.read(csv);

    assertThat(trace.pods()).extracting(PodRecord::name).containsExactly("web", "train, \"big\"");
    PodRecord train = trace.pods().get(1);
    assertThat(train.created()).isEqualTo(30);
    assertThat(train.deleted()).hasValue(90);
    assertThat(train.cpuMilli()).isEqualTo(2500);
    assertThat(train.gpuMilli()).isEqualTo(460);
    assertThat(train.qos()).isEqualTo("LS");
    assertThat(train.scheduled()).hasValue(30);
    PodRecord web = trace.pods().getFirst();
    assertThat(web.deleted()).isEmpty();
    assertThat(web.gpuMilli()).isZero();
    assertThat(trace.end()).isEqualTo(90);
  }

  @Test
  void writesWhatItReads() throws Exception {
    PodTrace trace = TraceCsv.read(ALIBABA);
    StringWriter out = new StringWriter();
    TraceCsv.write(trace, out);

    assertThat(out.toString()).startsWith(String.join(",", TraceCsv.BAMEL_HEADER) + "\n");
    assertThat(out.toString()).contains("openb-pod-0001,427061,12902960,6000,12288,0.46,");
    assertThat(TraceCsv.read(out.toString())).isEqualTo(trace);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "negative cpu|name,created,deleted,cpu_milli,memory_mib\\na,0,5,-1,10|line 2: column cpu_milli: negative: -1",
        "missing number|name,created,deleted,cpu_milli,memory_mib\\na,0,5,,10|line 2: column cpu_milli: missing value",
        "not a number|name,created,deleted,cpu_milli,memory_mib\\na,0,5,2k,10|line 2: column cpu_milli: not a whole number: 2k",
        "negative time|name,created,deleted,cpu_milli,memory_mib\\na,-5,5,1,10|line 2: column created: negative: -5",
        "deleted before created|name,created,deleted,cpu_milli,memory_mib\\n\\na,50,5,1,10|line 3: column deleted: deleted at 5, before its creation at 50",
        "scheduled before created|name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\\na,1,1,0,0,,BE,Running,50,60,40|line 2: column scheduled_time: scheduled at 40, before its creation at 50",
        "short row|name,created,deleted,cpu_milli,memory_mib\\na,0,5|line 2: column cpu_milli: missing (3 fields, header has more)",
        "missing column|name,created,cpu_milli,memory_mib\\na,0,1,1|line 1: missing column deleted",
        "unknown column|name,created,deleted,cpu_milli,memory_mib,gpu\\na,0,5,1,1,1|line 1: unknown column gpu",
        "duplicate column|name,created,deleted,cpu_milli,memory_mib,name\\na,0,5,1,1,b|line 1: column name twice in the header",
        "duplicate pod|name,created,deleted,cpu_milli,memory_mib\\na,0,5,1,1\\na,1,5,1,1|line 3: column name: pod a twice",
        "unterminated quote|name,created,deleted,cpu_milli,memory_mib\\n\"a,0,5,1,1|line 2: unterminated quote",
        "quote mid-field|name,created,deleted,cpu_milli,memory_mib\\na\"b,0,5,1,1|line 2: quote inside an unquoted field 1",
        "empty name|name,created,deleted,cpu_milli,memory_mib\\n,0,5,1,1|line 2: column name: missing value",
        "gpu too fine|name,created,deleted,cpu_milli,memory_mib,gpus\\na,0,5,1,1,0.0005|line 2: column gpus: finer than a thousandth of a GPU: 0.0005",
        "gpu share over one|name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\\na,1,1,1,1500,,BE,Running,0,1,0|line 2: column gpu_milli: must be at most 1000, the share of one GPU",
        "empty file|\\n\\n|line 3: no header: the file is empty",
      })
  void badInputNamesTheLineAndColumn(String label, String csv, String message) {
    assertThatThrownBy(() -> TraceCsv.read(csv.replace("\\n", "\n")))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageStartingWith(message);
  }

  private static PodRecord pod(PodTrace trace, String name) {
    return trace.pods().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
  }
}
