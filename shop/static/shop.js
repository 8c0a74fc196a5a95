// Storefront shop: progressive enhancement only. Every page works without
// this file; it adds the quantity steppers and the variant picker's live price.
"use strict";
