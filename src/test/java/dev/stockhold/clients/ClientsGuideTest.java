package dev.stockhold.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import dev.stockhold.client.events.DeduplicatingConsumer;
import dev.stockhold.support.Repository;

/** docs/clients.md shows the tours the tests run and the consumer's DDL, word for word. */
class ClientsGuideTest {

    @Test
    void shouldShowTheToursTheTestsRun() throws IOException {
        String guide = Files.readString(Repository.path("docs/clients.md"));
        assertThat(guide).contains("```java\n" + tour("src/test/java/dev/stockhold/clients/JavaClientTourTest.java") + "\n```");
        assertThat(guide).contains("```ts\n" + tour("clients/typescript/scenario/tour.mjs") + "\n```");
        assertThat(guide).contains("```sql\n" + DeduplicatingConsumer.DDL + "\n```");
    }

    /** The lines between the tour markers, without their common indentation. */
    private static String tour(String file) throws IOException {
        String source = Files.readString(Repository.path(file));
        String[] lines = source.substring(source.indexOf("// tour:begin\n") + "// tour:begin\n".length(), source.indexOf("// tour:end"))
                .stripTrailing().split("\n");
        int indent = Arrays.stream(lines).filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        return String.join("\n", Arrays.stream(lines).map(l -> l.length() >= indent ? l.substring(indent) : l.strip()).toList());
    }
}
