<?xml version="1.0" encoding="UTF-8"?>
<!-- Test stylesheet: turns an <order> into an <invoice> with one <line> per item. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="xml" omit-xml-declaration="yes" indent="no"/>

  <xsl:template match="/order">
    <invoice order="{@id}">
      <xsl:for-each select="item">
        <line sku="{@sku}" quantity="{@qty}"><xsl:value-of select="."/></line>
      </xsl:for-each>
    </invoice>
  </xsl:template>
</xsl:stylesheet>
