package io.ferry.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The perf run's broker.xml files: the project's local and remote broker configuration, unchanged,
 * plus each case's queues declared up front, and on the local broker the core bridge when that case
 * runs. Declared queues matter for the core bridge: it must find its source queue at start-up, and
 * what it forwards to an address without a queue would be dropped.
 */
public final class PerfBrokerConfig {

    private static final String CORE_NS = "urn:activemq:core";
    public static final String CORE_BRIDGE_NAME = "perf-core-bridge";
    private static final String REMOTE_CONNECTOR = "perf-remote";

    private PerfBrokerConfig() {
    }

    /** The journal-buffer-timeout a broker.xml sets, which decides what a persistent send costs, as "200 us". */
    public static String journalBufferTimeout(Path brokerXml) throws IOException {
        Matcher matcher = Pattern.compile("<journal-buffer-timeout>\\s*(\\d+)\\s*</journal-buffer-timeout>").matcher(Files.readString(brokerXml));
        return matcher.find() ? Long.parseLong(matcher.group(1)) / 1000 + " us" : "Artemis's default";
    }

    /** Writes {@code target} from {@code source}: each case's queues declared on this broker, and the core bridge when asked. */
    public static void write(Path source, Path target, List<PerfCase> cases, boolean local, int remotePort) throws IOException {
        try {
            Document document = parse(source);
            Element core = (Element) document.getElementsByTagNameNS(CORE_NS, "core").item(0);
            if (core == null) {
                throw new IOException(source + " has no <core> element");
            }
            Element addresses = child(document, core, "addresses");
            for (PerfCase perfCase : cases) {
                declareQueue(document, addresses, local ? perfCase.inQueue() : perfCase.outQueue());
            }
            if (local) {
                cases.stream().filter(c -> c instanceof PerfCase.CoreBridgeCase).findFirst()
                        .ifPresent(bridged -> addCoreBridge(document, core, bridged, remotePort));
            }
            Transformer transformer = TransformerFactory.newInstance().newTransformer();
            transformer.setOutputProperty(OutputKeys.INDENT, "yes");
            transformer.transform(new DOMSource(document), new StreamResult(target.toFile()));
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot write " + target + " from " + source + ": " + e.getMessage(), e);
        }
    }

    /**
     * Artemis's core bridge with its defaults, except what the comparison needs said out loud:
     * duplicate detection on (exactly once across a crash, like Ferry) and reconnecting for ever.
     */
    private static void addCoreBridge(Document document, Element core, PerfCase bridged, int remotePort) {
        Element connectors = child(document, core, "connectors");
        Element connector = element(document, connectors, "connector", "tcp://127.0.0.1:" + remotePort);
        connector.setAttribute("name", REMOTE_CONNECTOR);
        Element bridge = element(document, child(document, core, "bridges"), "bridge", null);
        bridge.setAttribute("name", CORE_BRIDGE_NAME);
        element(document, bridge, "queue-name", bridged.inQueue());
        element(document, bridge, "forwarding-address", bridged.outQueue());
        element(document, bridge, "use-duplicate-detection", "true");
        element(document, bridge, "reconnect-attempts", "-1");
        Element refs = element(document, bridge, "static-connectors", null);
        element(document, refs, "connector-ref", REMOTE_CONNECTOR);
    }

    private static void declareQueue(Document document, Element addresses, String queue) {
        Element address = element(document, addresses, "address", null);
        address.setAttribute("name", queue);
        Element anycast = element(document, address, "anycast", null);
        element(document, anycast, "queue", null).setAttribute("name", queue);
    }

    private static Element child(Document document, Element parent, String name) {
        NodeList children = parent.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            Node node = children.item(i);
            if (node instanceof Element e && name.equals(e.getLocalName())) {
                return e;
            }
        }
        return element(document, parent, name, null);
    }

    private static Element element(Document document, Element parent, String name, String text) {
        Element element = document.createElementNS(CORE_NS, name);
        if (text != null) {
            element.setTextContent(text);
        }
        parent.appendChild(element);
        return element;
    }

    private static Document parse(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        DocumentBuilder builder = factory.newDocumentBuilder();
        return builder.parse(file.toFile());
    }
}
