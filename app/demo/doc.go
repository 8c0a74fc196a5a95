// Package demo seeds the demo store "Demo Shop": a realistic configuration
// (banners, navigation, hero, footer, SEO, payment methods WALLET_A and
// WALLET_B, delivery options) and 40 products in 5 categories, with variants
// and images. The data is embedded JSON (demo.json); Seed writes it through
// the app services, so it passes the same validation as the admin API.
//
// demo imports app and nothing of web, admin or storage.
package demo
