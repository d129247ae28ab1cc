package io.ferry.workflow.service;

import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.transform.ErrorListener;
import javax.xml.transform.TransformerConfigurationException;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;

import org.xml.sax.SAXException;
import org.xml.sax.XMLReader;

/**
 * The JDK's own XML parser and XSLT processor, locked down against XML external entity (XXE)
 * attacks: payloads come from a broker and stylesheets must not reach out either, so no external
 * DTD, entity or stylesheet is ever fetched, and secure processing caps entity expansion.
 */
final class XmlFactories {

    /** Turns XSLT errors into exceptions instead of the JDK's default of printing them to stderr. */
    static final ErrorListener FAIL_ON_ERROR = new ErrorListener() {
        @Override
        public void warning(TransformerException exception) {
            // Warnings (e.g. a forwards-compatible stylesheet) do not stop the transformation.
        }

        @Override
        public void error(TransformerException exception) throws TransformerException {
            throw exception;
        }

        @Override
        public void fatalError(TransformerException exception) throws TransformerException {
            throw exception;
        }
    };

    // A SAXParserFactory is not guaranteed thread-safe; readers are made rarely (once per thread).
    private static final SAXParserFactory PARSERS = secureParserFactory();

    private XmlFactories() {
    }

    static TransformerFactory secureTransformerFactory() {
        TransformerFactory factory = TransformerFactory.newDefaultInstance();
        try {
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        } catch (TransformerConfigurationException e) {
            throw new IllegalStateException("the JDK's XSLT processor refused secure processing", e);
        }
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
        factory.setErrorListener(FAIL_ON_ERROR);
        return factory;
    }

    static XMLReader newSecureReader() {
        synchronized (PARSERS) {
            try {
                XMLReader reader = PARSERS.newSAXParser().getXMLReader();
                reader.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
                reader.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
                return reader;
            } catch (ParserConfigurationException | SAXException e) {
                throw new IllegalStateException("cannot create a secure XML reader", e);
            }
        }
    }

    private static SAXParserFactory secureParserFactory() {
        SAXParserFactory factory = SAXParserFactory.newDefaultInstance();
        factory.setNamespaceAware(true);
        try {
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("the JDK's XML parser refused a security feature", e);
        }
        return factory;
    }
}
