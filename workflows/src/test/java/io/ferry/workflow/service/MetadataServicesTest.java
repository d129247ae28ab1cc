package io.ferry.workflow.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;

/** add-metadata, copy-metadata and remove-metadata. */
class MetadataServicesTest {

    private final AddMetadataServiceFactory add = new AddMetadataServiceFactory();
    private final CopyMetadataServiceFactory copy = new CopyMetadataServiceFactory();
    private final RemoveMetadataServiceFactory remove = new RemoveMetadataServiceFactory();

    @Test
    void addMetadataAddsEverySettingAndOverwrites() throws Exception {
        Service service = add.create("tag", Map.of("source", "ferry", "region", "eu"));
        FerryMessage message = Messages.text("payload");
        message.metadata().put("region", "us");

        service.apply(message);

        assertThat(message.metadata()).containsOnly(Map.entry("source", "ferry"), Map.entry("region", "eu"));
        assertThat(message.text()).isEqualTo("payload");
    }

    @Test
    void addMetadataKeepsAnEmptyValue() throws Exception {
        FerryMessage message = Messages.text("payload");

        add.create("tag", Map.of("note", "")).apply(message);

        assertThat(message.metadata()).containsEntry("note", "");
    }

    @Test
    void addMetadataRefusesNoSettingsABlankKeyAndAMissingValue() throws Exception {
        assertThatIllegalArgumentException().isThrownBy(() -> add.create("tag", Map.of()))
                .withMessage("service 'tag': add-metadata needs at least one setting (metadata key: value)");
        assertThatIllegalArgumentException().isThrownBy(() -> add.create("tag", Map.of(" ", "x")))
                .withMessage("service 'tag': a metadata key is blank");
        Map<String, String> missingValue = new HashMap<>();
        missingValue.put("region", null);
        assertThatIllegalArgumentException().isThrownBy(() -> add.create("tag", missingValue))
                .withMessage("service 'tag': setting 'region' has no value");
    }

    @Test
    void copyMetadataCopiesValuesWithTheirType() throws Exception {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("seq", "sequence");
        settings.put("customer", "customer-copy");
        Service service = copy.create("copy", settings);
        FerryMessage message = Messages.text("payload");
        message.metadata().put("seq", 42);
        message.metadata().put("customer", "acme");

        service.apply(message);

        assertThat(message.metadata())
                .containsEntry("seq", 42)
                .containsEntry("sequence", 42)
                .containsEntry("customer", "acme")
                .containsEntry("customer-copy", "acme");
        assertThat(message.metadata().get("sequence")).isInstanceOf(Integer.class);
    }

    @Test
    void copyMetadataIgnoresAMissingSourceKey() throws Exception {
        Service service = copy.create("copy", Map.of("absent", "target"));
        FerryMessage message = Messages.text("payload");
        message.metadata().put("target", "kept");

        service.apply(message);

        assertThat(message.metadata()).containsOnly(Map.entry("target", "kept"));
    }

    @Test
    void copyMetadataRefusesNoSettingsAndABlankTarget() throws Exception {
        assertThatIllegalArgumentException().isThrownBy(() -> copy.create("copy", Map.of()))
                .withMessage("service 'copy': copy-metadata needs at least one setting (source key: target key)");
        assertThatIllegalArgumentException().isThrownBy(() -> copy.create("copy", Map.of("seq", " ")))
                .withMessage("service 'copy': setting 'seq' needs a target metadata key");
    }

    @Test
    void removeMetadataRemovesEveryListedKeyAndIgnoresAbsentOnes() throws Exception {
        Service service = remove.create("strip", Map.of("keys", "secret, internal ,absent"));
        FerryMessage message = Messages.text("payload");
        message.metadata().put("secret", "s3cr3t");
        message.metadata().put("internal", 7);
        message.metadata().put("kept", true);

        service.apply(message);

        assertThat(message.metadata()).containsOnly(Map.entry("kept", true));
    }

    @Test
    void removeMetadataNamesAMissingOrWrongSetting() throws Exception {
        assertThatIllegalArgumentException().isThrownBy(() -> remove.create("strip", Map.of()))
                .withMessage("service 'strip': setting 'keys' is required");
        assertThatIllegalArgumentException().isThrownBy(() -> remove.create("strip", Map.of("keys", "a,,b")))
                .withMessage("service 'strip': setting 'keys' has an empty item: 'a,,b'");
        assertThatIllegalArgumentException().isThrownBy(() -> remove.create("strip", Map.of("key", "a")))
                .withMessage("service 'strip': unknown setting 'key' (known: keys)");
    }
}
