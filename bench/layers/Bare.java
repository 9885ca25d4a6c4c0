import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;

/**
 * Row (a) of bench/ablation: the least a JVM can do to serve a reservation. A bare Vert.x HTTP server (no Quarkus, no
 * JAX-RS, no token, no idempotency code) whose one handler reads the sku from the JSON body and sends the service's
 * one-statement reservation (the statement bench/reservation.pgbench carries, with the key and the sku as parameters)
 * through Vert.x's reactive PostgreSQL client, on the event loop, and answers 201 with the reservation's id.
 *
 * <pre>
 *   java -cp VERTX_AND_PG_CLIENT_JARS bench/layers/Bare.java STATEMENT_FILE PORT DATABASE
 * </pre>
 *
 * GET /ready answers 200 once the pool has opened a connection. The statement's planner settings (a generic plan,
 * index paths only), which the service sends before the statement in the same round trip, are set once per connection.
 */
public class Bare {

    private static final String SETTINGS = "SET plan_cache_mode = force_generic_plan; SET enable_seqscan = off;"
            + " SET enable_hashjoin = off; SET enable_mergejoin = off";

    public static void main(String[] args) throws Exception {
        String statement = Files.readString(Path.of(args[0]));
        int port = Integer.parseInt(args[1]);
        // as Quarkus sizes its event loops: two per core
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2 * Runtime.getRuntime().availableProcessors()));
        PgConnectOptions connect = new PgConnectOptions().setHost("127.0.0.1").setPort(5432).setDatabase(args[2])
                // the statement (about 5,000 characters) is longer than the client's default limit of a cached one
                // (2,048): without this it would be parsed and planned on every call
                .setUser("postgres").setCachePreparedStatements(true).setPreparedStatementCacheSqlLimit(Integer.MAX_VALUE);
        var pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(20)).connectingTo(connect).using(vertx)
                .withConnectHandler(conn -> conn.query(SETTINGS).execute().onComplete(done -> conn.close())).build();
        vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port)).requestHandler(request -> {
            if (request.method() == HttpMethod.GET) {
                pool.query("SELECT 1").execute().onComplete(up -> request.response().setStatusCode(up.succeeded() ? 200 : 503).end());
                return;
            }
            request.body().onSuccess(body -> {
                String sku = new JsonObject(body).getJsonArray("lines").getJsonObject(0).getString("sku");
                ThreadLocalRandom random = ThreadLocalRandom.current();
                String key = new UUID(random.nextLong(), random.nextLong()).toString();
                pool.preparedQuery(statement).execute(Tuple.of(key, sku)).onComplete(done -> {
                    if (done.succeeded()) {
                        request.response().setStatusCode(201).putHeader("Content-Type", "application/json")
                                .end(new JsonObject().put("key", key).put("status", "HELD").encode());
                    } else {
                        request.response().setStatusCode(503).end(String.valueOf(done.cause().getMessage()));
                    }
                });
            });
        }).listen().toCompletionStage().toCompletableFuture().join();
    }
}
