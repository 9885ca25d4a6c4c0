import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.ChangeEventFormat;
import io.debezium.embedded.Connect;

/**
 * The relay benchmark's peer: Debezium embedded reads the outbox table's inserts from the WAL (pgoutput) and publishes
 * each to stockhold.events exactly as Stockhold's relay does (routing key from the type, persistent, message_id = event
 * id, CloudEvents JSON as stored), one wait for publisher confirms per Debezium batch, offsets committed after it.
 *
 * <pre>
 *   java -cp ... DebeziumPeer DATABASE burst N     # prints events/s once N inserts are confirmed, then exits
 *   java -cp ... DebeziumPeer DATABASE lag SECONDS WARM # commit-to-confirm p50/p99 over SECONDS, the first WARM discarded
 * </pre>
 * Prints "READY" once streaming, so the benchmark starts writing only then.
 */
public final class DebeziumPeer {

    private static final List<Long> lagsMillis = Collections.synchronizedList(new ArrayList<>());
    private static final AtomicLong confirmed = new AtomicLong();
    private static volatile long firstSeenNanos;
    private static volatile long lastConfirmNanos;

    public static void main(String[] args) throws Exception {
        String database = args[0];
        String mode = args[1];
        long amount = Long.parseLong(args[2]);
        long warmNanos = args.length > 3 ? Long.parseLong(args[3]) * 1_000_000_000L : 0;
        long started = System.nanoTime();

        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(System.getenv().getOrDefault("RABBITMQ_HOST", "localhost"));
        Connection rabbit = factory.newConnection("debezium-peer");
        Channel channel = rabbit.createChannel();
        channel.exchangeDeclarePassive("stockhold.events");
        channel.confirmSelect();

        Properties props = new Properties();
        props.setProperty("name", "stockhold-peer");
        props.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        props.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
        props.setProperty("offset.flush.interval.ms", "1000");
        props.setProperty("database.hostname", "127.0.0.1");
        props.setProperty("database.port", "5432");
        props.setProperty("database.user", "postgres");
        props.setProperty("database.password", "");
        props.setProperty("database.dbname", database);
        props.setProperty("topic.prefix", "peer");
        props.setProperty("plugin.name", "pgoutput");
        props.setProperty("slot.name", "stockhold_peer");
        props.setProperty("slot.drop.on.stop", "true");
        props.setProperty("publication.name", "stockhold_peer");
        props.setProperty("publication.autocreate.mode", "filtered");
        props.setProperty("table.include.list", "public.outbox_events");
        props.setProperty("snapshot.mode", "no_data");
        // the peer at its best: no idle wait between polls, large batches
        props.setProperty("poll.interval.ms", "1");
        props.setProperty("max.batch.size", "4096");
        props.setProperty("max.queue.size", "16384");

        CountDownLatch done = new CountDownLatch(1);
        DebeziumEngine<RecordChangeEvent<SourceRecord>> engine = DebeziumEngine
                .create(ChangeEventFormat.of(Connect.class))
                .using(props)
                .using(new DebeziumEngine.ConnectorCallback() {
                    @Override
                    public void taskStarted() {
                        System.out.println("READY");
                        System.out.flush();
                    }
                })
                .notifying((records, committer) -> {
                    if (firstSeenNanos == 0 && !records.isEmpty()) {
                        firstSeenNanos = System.nanoTime();
                    }
                    List<Long> commitMillis = new ArrayList<>(records.size());
                    for (RecordChangeEvent<SourceRecord> record : records) {
                        Struct value = (Struct) record.record().value();
                        if (value == null || !"c".equals(value.getString("op"))) {
                            continue;
                        }
                        Struct after = value.getStruct("after");
                        String type = after.getString("event_type");
                        String routingKey = type.replaceFirst("^dev\\.stockhold\\.", "").replaceFirst("\\.v[0-9]+$", "");
                        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                                .messageId(after.getString("id")).contentType("application/cloudevents+json")
                                .deliveryMode(2).type(type).headers(Map.of("tenantid", after.getString("tenant_id"))).build();
                        try {
                            channel.basicPublish("stockhold.events", routingKey, false, properties,
                                    after.getString("payload").getBytes(StandardCharsets.UTF_8));
                        } catch (java.io.IOException e) {
                            throw new IllegalStateException(e);
                        }
                        commitMillis.add(value.getStruct("source").getInt64("ts_ms"));
                    }
                    try {
                        channel.waitForConfirmsOrDie(10_000);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    long now = System.currentTimeMillis();
                    lastConfirmNanos = System.nanoTime();
                    if (System.nanoTime() - started >= warmNanos) {
                        commitMillis.forEach(ts -> lagsMillis.add(now - ts));
                    }
                    for (RecordChangeEvent<SourceRecord> record : records) {
                        committer.markProcessed(record);
                    }
                    committer.markBatchFinished();
                    if (mode.equals("burst") && confirmed.addAndGet(commitMillis.size()) >= amount) {
                        done.countDown();
                    }
                })
                .build();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        executor.execute(engine);

        if (mode.equals("burst")) {
            done.await();
            double seconds = (lastConfirmNanos - firstSeenNanos) / 1e9;
            System.out.printf("RESULT mode=burst events=%d seconds=%.3f events_per_s=%.0f%n", confirmed.get(), seconds,
                    confirmed.get() / seconds);
        } else {
            // the benchmark starts its load after READY and stops it after the given seconds
            done.await(amount, TimeUnit.SECONDS);
            List<Long> sorted;
            synchronized (lagsMillis) {
                sorted = new ArrayList<>(lagsMillis);
            }
            Collections.sort(sorted);
            System.out.printf("RESULT mode=lag events=%d p50_ms=%d p99_ms=%d%n", sorted.size(),
                    sorted.isEmpty() ? -1 : sorted.get(sorted.size() / 2),
                    sorted.isEmpty() ? -1 : sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.99) - 1)));
        }
        System.out.flush();
        engine.close();
        executor.shutdown();
        executor.awaitTermination(30, TimeUnit.SECONDS);
        rabbit.close();
        System.exit(0);
    }
}
