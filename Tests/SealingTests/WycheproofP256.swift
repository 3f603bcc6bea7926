/// Project Wycheproof's ECDSA P-256 SHA-256 vectors with IEEE P1363 signatures (r‖s, as
/// JWS has them): testvectors_v1/ecdsa_secp256r1_sha256_p1363_test.json of
/// github.com/C2SP/wycheproof at dac1dd4729fd (2026-08-18; Apache License 2.0), every one
/// of its 262 tests, converted by a one-off script: each key with its tests, each test
/// with its id, comment, message, signature (hex) and whether it is valid. They include
/// r and s at and around 0, n and p, s⁻¹ edge cases, sums that are the point at infinity,
/// x(R) at or above n and r + n at or above p (tcId 253-262), and signatures of the wrong
/// length.
enum WycheproofP256 {
    static let keys: [WycheproofP256Key] = [
        WycheproofP256Key(
            x: "2927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838",
            y: "c7787964eaac00e5921fb1498a60f4606766b3d9685001558d1a974e7341513e",
            tests: [
                .init(1, "signature malleability", message: "313233343030",
                      signature: "2ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e184cd60b855d442f5b3c7b11eb6c4e0ae7525fe710fab9aa7c77a67f79e6fadd76", valid: true),
                .init(2, "replaced r by r + n", message: "313233343030",
                      signature: "012ba3a8bd6b94d5ed80a6d9d1190a436ebccc0833490686deac8635bcb9bf536900b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db", valid: false),
                .init(3, "replaced r by r + 256 * n", message: "313233343030",
                      signature: "01002ba3a7be6b94d6ec80a6d9d1190a432be6dfbb2cb98d6d4d72972df620817f180000b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db", valid: false),
                .init(4, "replaced r by n - r", message: "313233343030",
                      signature: "d45c5740946b2a147f59262ee6f5bc90bd01ed280528b62b3aed5fc93f06f739b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db", valid: false),
                .init(5, "replaced r by r + 2**256", message: "313233343030",
                      signature: "012ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e1800b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db", valid: false),
                .init(6, "replaced r by r + 2**320", message: "313233343030",
                      signature: "0100000000000000002ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18000000000000000000b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db", valid: false),
                .init(7, "replaced s by s + n", message: "313233343030",
                      signature: "01b329f478a2bbd0a6c384ee1493b1f518276e0e4a5375928d6fcd160c11cb6d2c00b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db", valid: false),
                .init(8, "replaced s by s + 256 * n", message: "313233343030",
                      signature: "0100b329f379a2bbd1a5c384ee1493b1f4d55181c143c3fc78fc35de0e45788d98db0000b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db", valid: false),
                .init(9, "replaced s by s + 2**256", message: "313233343030",
                      signature: "01b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db00b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db", valid: false),
                .init(10, "replaced s by s + 2**320", message: "313233343030",
                      signature: "010000000000000000b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db000000000000000000b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db", valid: false),
                .init(11, "Signature with special case values r=0 and s=0", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", valid: false),
                .init(12, "Signature with special case values r=0 and s=1", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001", valid: false),
                .init(13, "Signature with special case values r=0 and s=n", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000000ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", valid: false),
                .init(14, "Signature with special case values r=0 and s=n - 1", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000000ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550", valid: false),
                .init(15, "Signature with special case values r=0 and s=n + 1", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000000ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552", valid: false),
                .init(16, "Signature with special case values r=0 and s=p", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000000ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", valid: false),
                .init(17, "Signature with special case values r=0 and s=p + 1", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000000ffffffff00000001000000000000000000000001000000000000000000000000", valid: false),
                .init(18, "Signature with special case values r=1 and s=0", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000000", valid: false),
                .init(19, "Signature with special case values r=1 and s=1", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000001", valid: false),
                .init(20, "Signature with special case values r=1 and s=n", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000001ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", valid: false),
                .init(21, "Signature with special case values r=1 and s=n - 1", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000001ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550", valid: false),
                .init(22, "Signature with special case values r=1 and s=n + 1", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000001ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552", valid: false),
                .init(23, "Signature with special case values r=1 and s=p", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000001ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", valid: false),
                .init(24, "Signature with special case values r=1 and s=p + 1", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000001ffffffff00000001000000000000000000000001000000000000000000000000", valid: false),
                .init(25, "Signature with special case values r=n and s=0", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc6325510000000000000000000000000000000000000000000000000000000000000000", valid: false),
                .init(26, "Signature with special case values r=n and s=1", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc6325510000000000000000000000000000000000000000000000000000000000000001", valid: false),
                .init(27, "Signature with special case values r=n and s=n", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", valid: false),
                .init(28, "Signature with special case values r=n and s=n - 1", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550", valid: false),
                .init(29, "Signature with special case values r=n and s=n + 1", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552", valid: false),
                .init(30, "Signature with special case values r=n and s=p", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", valid: false),
                .init(31, "Signature with special case values r=n and s=p + 1", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551ffffffff00000001000000000000000000000001000000000000000000000000", valid: false),
                .init(32, "Signature with special case values r=n - 1 and s=0", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc6325500000000000000000000000000000000000000000000000000000000000000000", valid: false),
                .init(33, "Signature with special case values r=n - 1 and s=1", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc6325500000000000000000000000000000000000000000000000000000000000000001", valid: false),
                .init(34, "Signature with special case values r=n - 1 and s=n", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", valid: false),
                .init(35, "Signature with special case values r=n - 1 and s=n - 1", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550", valid: false),
                .init(36, "Signature with special case values r=n - 1 and s=n + 1", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552", valid: false),
                .init(37, "Signature with special case values r=n - 1 and s=p", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", valid: false),
                .init(38, "Signature with special case values r=n - 1 and s=p + 1", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550ffffffff00000001000000000000000000000001000000000000000000000000", valid: false),
                .init(39, "Signature with special case values r=n + 1 and s=0", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc6325520000000000000000000000000000000000000000000000000000000000000000", valid: false),
                .init(40, "Signature with special case values r=n + 1 and s=1", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc6325520000000000000000000000000000000000000000000000000000000000000001", valid: false),
                .init(41, "Signature with special case values r=n + 1 and s=n", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", valid: false),
                .init(42, "Signature with special case values r=n + 1 and s=n - 1", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550", valid: false),
                .init(43, "Signature with special case values r=n + 1 and s=n + 1", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552", valid: false),
                .init(44, "Signature with special case values r=n + 1 and s=p", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", valid: false),
                .init(45, "Signature with special case values r=n + 1 and s=p + 1", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552ffffffff00000001000000000000000000000001000000000000000000000000", valid: false),
                .init(46, "Signature with special case values r=p and s=0", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff0000000000000000000000000000000000000000000000000000000000000000", valid: false),
                .init(47, "Signature with special case values r=p and s=1", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff0000000000000000000000000000000000000000000000000000000000000001", valid: false),
                .init(48, "Signature with special case values r=p and s=n", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffffffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", valid: false),
                .init(49, "Signature with special case values r=p and s=n - 1", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffffffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550", valid: false),
                .init(50, "Signature with special case values r=p and s=n + 1", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffffffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552", valid: false),
                .init(51, "Signature with special case values r=p and s=p", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffffffffffff00000001000000000000000000000000ffffffffffffffffffffffff", valid: false),
                .init(52, "Signature with special case values r=p and s=p + 1", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffffffffffff00000001000000000000000000000001000000000000000000000000", valid: false),
                .init(53, "Signature with special case values r=p + 1 and s=0", message: "313233343030",
                      signature: "ffffffff000000010000000000000000000000010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", valid: false),
                .init(54, "Signature with special case values r=p + 1 and s=1", message: "313233343030",
                      signature: "ffffffff000000010000000000000000000000010000000000000000000000000000000000000000000000000000000000000000000000000000000000000001", valid: false),
                .init(55, "Signature with special case values r=p + 1 and s=n", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000001000000000000000000000000ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", valid: false),
                .init(56, "Signature with special case values r=p + 1 and s=n - 1", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000001000000000000000000000000ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550", valid: false),
                .init(57, "Signature with special case values r=p + 1 and s=n + 1", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000001000000000000000000000000ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552", valid: false),
                .init(58, "Signature with special case values r=p + 1 and s=p", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000001000000000000000000000000ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", valid: false),
                .init(59, "Signature with special case values r=p + 1 and s=p + 1", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000001000000000000000000000000ffffffff00000001000000000000000000000001000000000000000000000000", valid: false),
                .init(60, "Edge case for Shamir multiplication", message: "3639383139",
                      signature: "64a1aab5000d0e804f3e2fc02bdee9be8ff312334e2ba16d11547c97711c898e6af015971cc30be6d1a206d4e013e0997772a2f91d73286ffd683b9bb2cf4f1b", valid: true),
                .init(61, "special case hash", message: "343236343739373234",
                      signature: "16aea964a2f6506d6f78c81c91fc7e8bded7d397738448de1e19a0ec580bf266252cd762130c6667cfe8b7bc47d27d78391e8e80c578d1cd38c3ff033be928e9", valid: true),
                .init(62, "special case hash", message: "37313338363834383931",
                      signature: "9cc98be2347d469bf476dfc26b9b733df2d26d6ef524af917c665baccb23c882093496459effe2d8d70727b82462f61d0ec1b7847929d10ea631dacb16b56c32", valid: true),
                .init(63, "special case hash", message: "3130333539333331363638",
                      signature: "73b3c90ecd390028058164524dde892703dce3dea0d53fa8093999f07ab8aa432f67b0b8e20636695bb7d8bf0a651c802ed25a395387b5f4188c0c4075c88634", valid: true),
                .init(64, "special case hash", message: "33393439343031323135",
                      signature: "bfab3098252847b328fadf2f89b95c851a7f0eb390763378f37e90119d5ba3ddbdd64e234e832b1067c2d058ccb44d978195ccebb65c2aaf1e2da9b8b4987e3b", valid: true),
                .init(65, "special case hash", message: "31333434323933303739",
                      signature: "204a9784074b246d8bf8bf04a4ceb1c1f1c9aaab168b1596d17093c5cd21d2cd51cce41670636783dc06a759c8847868a406c2506fe17975582fe648d1d88b52", valid: true),
                .init(66, "special case hash", message: "33373036323131373132",
                      signature: "ed66dc34f551ac82f63d4aa4f81fe2cb0031a91d1314f835027bca0f1ceeaa0399ca123aa09b13cd194a422e18d5fda167623c3f6e5d4d6abb8953d67c0c48c7", valid: true),
                .init(67, "special case hash", message: "333433363838373132",
                      signature: "060b700bef665c68899d44f2356a578d126b062023ccc3c056bf0f60a237012b8d186c027832965f4fcc78a3366ca95dedbb410cbef3f26d6be5d581c11d3610", valid: true),
                .init(68, "special case hash", message: "31333531353330333730",
                      signature: "9f6adfe8d5eb5b2c24d7aa7934b6cf29c93ea76cd313c9132bb0c8e38c96831db26a9c9e40e55ee0890c944cf271756c906a33e66b5bd15e051593883b5e9902", valid: true),
                .init(69, "special case hash", message: "36353533323033313236",
                      signature: "a1af03ca91677b673ad2f33615e56174a1abf6da168cebfa8868f4ba273f16b720aa73ffe48afa6435cd258b173d0c2377d69022e7d098d75caf24c8c5e06b1c", valid: true),
                .init(70, "special case hash", message: "31353634333436363033",
                      signature: "fdc70602766f8eed11a6c99a71c973d5659355507b843da6e327a28c11893db93df5349688a085b137b1eacf456a9e9e0f6d15ec0078ca60a7f83f2b10d21350", valid: true),
                .init(71, "special case hash", message: "34343239353339313137",
                      signature: "b516a314f2fce530d6537f6a6c49966c23456f63c643cf8e0dc738f7b876e675d39ffd033c92b6d717dd536fbc5efdf1967c4bd80954479ba66b0120cd16fff2", valid: true),
                .init(72, "special case hash", message: "3130393533323631333531",
                      signature: "3b2cbf046eac45842ecb7984d475831582717bebb6492fd0a485c101e29ff0a84c9b7b47a98b0f82de512bc9313aaf51701099cac5f76e68c8595fc1c1d99258", valid: true),
                .init(73, "special case hash", message: "35393837333530303431",
                      signature: "30c87d35e636f540841f14af54e2f9edd79d0312cfa1ab656c3fb15bfde48dcf47c15a5a82d24b75c85a692bd6ecafeb71409ede23efd08e0db9abf6340677ed", valid: true),
                .init(74, "special case hash", message: "33343633303036383738",
                      signature: "38686ff0fda2cef6bc43b58cfe6647b9e2e8176d168dec3c68ff262113760f52067ec3b651f422669601662167fa8717e976e2db5e6a4cf7c2ddabb3fde9d67d", valid: true),
                .init(75, "special case hash", message: "39383137333230323837",
                      signature: "44a3e23bf314f2b344fc25c7f2de8b6af3e17d27f5ee844b225985ab6e2775cf2d48e223205e98041ddc87be532abed584f0411f5729500493c9cc3f4dd15e86", valid: true),
                .init(76, "special case hash", message: "33323232303431303436",
                      signature: "2ded5b7ec8e90e7bf11f967a3d95110c41b99db3b5aa8d330eb9d638781688e97d5792c53628155e1bfc46fb1a67e3088de049c328ae1f44ec69238a009808f9", valid: true),
                .init(77, "special case hash", message: "36363636333037313034",
                      signature: "bdae7bcb580bf335efd3bc3d31870f923eaccafcd40ec2f605976f15137d8b8ff6dfa12f19e525270b0106eecfe257499f373a4fb318994f24838122ce7ec3c7", valid: true),
                .init(78, "special case hash", message: "31303335393531383938",
                      signature: "50f9c4f0cd6940e162720957ffff513799209b78596956d21ece251c2401f1c6d7033a0a787d338e889defaaabb106b95a4355e411a59c32aa5167dfab244726", valid: true),
                .init(79, "special case hash", message: "31383436353937313935",
                      signature: "f612820687604fa01906066a378d67540982e29575d019aabe90924ead5c860d3f9367702dd7dd4f75ea98afd20e328a1a99f4857b316525328230ce294b0fef", valid: true),
                .init(80, "special case hash", message: "33313336303436313839",
                      signature: "9505e407657d6e8bc93db5da7aa6f5081f61980c1949f56b0f2f507da5782a7ac60d31904e3669738ffbeccab6c3656c08e0ed5cb92b3cfa5e7f71784f9c5021", valid: true),
                .init(81, "special case hash", message: "32363633373834323534",
                      signature: "bbd16fbbb656b6d0d83e6a7787cd691b08735aed371732723e1c68a40404517d9d8e35dba96028b7787d91315be675877d2d097be5e8ee34560e3e7fd25c0f00", valid: true),
                .init(82, "special case hash", message: "31363532313030353234",
                      signature: "2ec9760122db98fd06ea76848d35a6da442d2ceef7559a30cf57c61e92df327e7ab271da90859479701fccf86e462ee3393fb6814c27b760c4963625c0a19878", valid: true),
                .init(83, "special case hash", message: "35373438303831363936",
                      signature: "54e76b7683b6650baa6a7fc49b1c51eed9ba9dd463221f7a4f1005a89fe00c592ea076886c773eb937ec1cc8374b7915cfd11b1c1ae1166152f2f7806a31c8fd", valid: true),
                .init(84, "special case hash", message: "36333433393133343638",
                      signature: "5291deaf24659ffbbce6e3c26f6021097a74abdbb69be4fb10419c0c496c946665d6fcf336d27cc7cdb982bb4e4ecef5827f84742f29f10abf83469270a03dc3", valid: true),
                .init(85, "special case hash", message: "31353431313033353938",
                      signature: "207a3241812d75d947419dc58efb05e8003b33fc17eb50f9d15166a88479f107cdee749f2e492b213ce80b32d0574f62f1c5d70793cf55e382d5caadf7592767", valid: true),
                .init(86, "special case hash", message: "3130343738353830313238",
                      signature: "6554e49f82a855204328ac94913bf01bbe84437a355a0a37c0dee3cf81aa7728aea00de2507ddaf5c94e1e126980d3df16250a2eaebc8be486effe7f22b4f929", valid: true),
                .init(87, "special case hash", message: "3130353336323835353638",
                      signature: "a54c5062648339d2bff06f71c88216c26c6e19b4d80a8c602990ac82707efdfce99bbe7fcfafae3e69fd016777517aa01056317f467ad09aff09be73c9731b0d", valid: true),
                .init(88, "special case hash", message: "393533393034313035",
                      signature: "975bd7157a8d363b309f1f444012b1a1d23096593133e71b4ca8b059cff37eaf7faa7a28b1c822baa241793f2abc930bd4c69840fe090f2aacc46786bf919622", valid: true),
                .init(89, "special case hash", message: "393738383438303339",
                      signature: "5694a6f84b8f875c276afd2ebcfe4d61de9ec90305afb1357b95b3e0da43885e0dffad9ffd0b757d8051dec02ebdf70d8ee2dc5c7870c0823b6ccc7c679cbaa4", valid: true),
                .init(90, "special case hash", message: "33363130363732343432",
                      signature: "a0c30e8026fdb2b4b4968a27d16a6d08f7098f1a98d21620d7454ba9790f1ba65e470453a8a399f15baf463f9deceb53acc5ca64459149688bd2760c65424339", valid: true),
                .init(91, "special case hash", message: "31303534323430373035",
                      signature: "614ea84acf736527dd73602cd4bb4eea1dfebebd5ad8aca52aa0228cf7b99a88737cc85f5f2d2f60d1b8183f3ed490e4de14368e96a9482c2a4dd193195c902f", valid: true),
                .init(92, "special case hash", message: "35313734343438313937",
                      signature: "bead6734ebe44b810d3fb2ea00b1732945377338febfd439a8d74dfbd0f942fa6bb18eae36616a7d3cad35919fd21a8af4bbe7a10f73b3e036a46b103ef56e2a", valid: true),
                .init(93, "special case hash", message: "31393637353631323531",
                      signature: "499625479e161dacd4db9d9ce64854c98d922cbf212703e9654fae182df9bad242c177cf37b8193a0131108d97819edd9439936028864ac195b64fca76d9d693", valid: true),
                .init(94, "special case hash", message: "33343437323533333433",
                      signature: "08f16b8093a8fb4d66a2c8065b541b3d31e3bfe694f6b89c50fb1aaa6ff6c9b29d6455e2d5d1779748573b611cb95d4a21f967410399b39b535ba3e5af81ca2e", valid: true),
                .init(95, "special case hash", message: "333638323634333138",
                      signature: "be26231b6191658a19dd72ddb99ed8f8c579b6938d19bce8eed8dc2b338cb5f8e1d9a32ee56cffed37f0f22b2dcb57d5c943c14f79694a03b9c5e96952575c89", valid: true),
                .init(96, "special case hash", message: "33323631313938363038",
                      signature: "15e76880898316b16204ac920a02d58045f36a229d4aa4f812638c455abe0443e74d357d3fcb5c8c5337bd6aba4178b455ca10e226e13f9638196506a1939123", valid: true),
                .init(97, "special case hash", message: "39363738373831303934",
                      signature: "352ecb53f8df2c503a45f9846fc28d1d31e6307d3ddbffc1132315cc07f16dad1348dfa9c482c558e1d05c5242ca1c39436726ecd28258b1899792887dd0a3c6", valid: true),
                .init(98, "special case hash", message: "34393538383233383233",
                      signature: "4a40801a7e606ba78a0da9882ab23c7677b8642349ed3d652c5bfa5f2a9558fb3a49b64848d682ef7f605f2832f7384bdc24ed2925825bf8ea77dc5981725782", valid: true),
                .init(99, "special case hash", message: "383234363337383337",
                      signature: "eacc5e1a8304a74d2be412b078924b3bb3511bac855c05c9e5e9e44df3d61e967451cd8e18d6ed1885dd827714847f96ec4bb0ed4c36ce9808db8f714204f6d1", valid: true),
                .init(100, "special case hash", message: "3131303230383333373736",
                      signature: "2f7a5e9e5771d424f30f67fdab61e8ce4f8cd1214882adb65f7de94c31577052ac4e69808345809b44acb0b2bd889175fb75dd050c5a449ab9528f8f78daa10c", valid: true),
                .init(101, "special case hash", message: "313333383731363438",
                      signature: "ffcda40f792ce4d93e7e0f0e95e1a2147dddd7f6487621c30a03d710b330021979938b55f8a17f7ed7ba9ade8f2065a1fa77618f0b67add8d58c422c2453a49a", valid: true),
                .init(102, "special case hash", message: "333232313434313632",
                      signature: "81f2359c4faba6b53d3e8c8c3fcc16a948350f7ab3a588b28c17603a431e39a8cd6f6a5cc3b55ead0ff695d06c6860b509e46d99fccefb9f7f9e101857f74300", valid: true),
                .init(103, "special case hash", message: "3130363836363535353436",
                      signature: "dfc8bf520445cbb8ee1596fb073ea283ea130251a6fdffa5c3f5f2aaf75ca808048e33efce147c9dd92823640e338e68bfd7d0dc7a4905b3a7ac711e577e90e7", valid: true),
                .init(104, "special case hash", message: "3632313535323436",
                      signature: "ad019f74c6941d20efda70b46c53db166503a0e393e932f688227688ba6a576293320eb7ca0710255346bdbb3102cdcf7964ef2e0988e712bc05efe16c199345", valid: true),
                .init(105, "special case hash", message: "37303330383138373734",
                      signature: "ac8096842e8add68c34e78ce11dd71e4b54316bd3ebf7fffdeb7bd5a3ebc1883f5ca2f4f23d674502d4caf85d187215d36e3ce9f0ce219709f21a3aac003b7a8", valid: true),
                .init(106, "special case hash", message: "35393234353233373434",
                      signature: "677b2d3a59b18a5ff939b70ea002250889ddcd7b7b9d776854b4943693fb92f76b4ba856ade7677bf30307b21f3ccda35d2f63aee81efd0bab6972cc0795db55", valid: true),
                .init(107, "special case hash", message: "31343935353836363231",
                      signature: "479e1ded14bcaed0379ba8e1b73d3115d84d31d4b7c30e1f05e1fc0d5957cfb0918f79e35b3d89487cf634a4f05b2e0c30857ca879f97c771e877027355b2443", valid: true),
                .init(108, "special case hash", message: "34303035333134343036",
                      signature: "43dfccd0edb9e280d9a58f01164d55c3d711e14b12ac5cf3b64840ead512a0a31dbe33fa8ba84533cd5c4934365b3442ca1174899b78ef9a3199f49584389772", valid: true),
                .init(109, "special case hash", message: "33303936343537353132",
                      signature: "5b09ab637bd4caf0f4c7c7e4bca592fea20e9087c259d26a38bb4085f0bbff1145b7eb467b6748af618e9d80d6fdcd6aa24964e5a13f885bca8101de08eb0d75", valid: true),
                .init(110, "special case hash", message: "32373834303235363230",
                      signature: "5e9b1c5a028070df5728c5c8af9b74e0667afa570a6cfa0114a5039ed15ee06fb1360907e2d9785ead362bb8d7bd661b6c29eeffd3c5037744edaeb9ad990c20", valid: true),
                .init(111, "special case hash", message: "32363138373837343138",
                      signature: "0671a0a85c2b72d54a2fb0990e34538b4890050f5a5712f6d1a7a5fb8578f32edb1846bab6b7361479ab9c3285ca41291808f27fd5bd4fdac720e5854713694c", valid: true),
                .init(112, "special case hash", message: "31363432363235323632",
                      signature: "7673f8526748446477dbbb0590a45492c5d7d69859d301abbaedb35b2095103a3dc70ddf9c6b524d886bed9e6af02e0e4dec0d417a414fed3807ef4422913d7c", valid: true),
                .init(113, "special case hash", message: "36383234313839343336",
                      signature: "7f085441070ecd2bb21285089ebb1aa6450d1a06c36d3ff39dfd657a796d12b5249712012029870a2459d18d47da9aa492a5e6cb4b2d8dafa9e4c5c54a2b9a8b", valid: true),
                .init(114, "special case hash", message: "343834323435343235",
                      signature: "914c67fb61dd1e27c867398ea7322d5ab76df04bc5aa6683a8e0f30a5d287348fa07474031481dda4953e3ac1959ee8cea7e66ec412b38d6c96d28f6d37304ea", valid: true),
            ]),
        WycheproofP256Key(
            x: "0ad99500288d466940031d72a9f5445a4d43784640855bf0a69874d2de5fe103",
            y: "c5011e6ef2c42dcd50d5d3d29f99ae6eba2c80c9244f4c5422f0979ff0c3ba5e",
            tests: [
                .init(115, "k*G has a large x-coordinate", message: "313233343030",
                      signature: "000000000000000000000000000000004319055358e8617b0c46353d039cdaabffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254e", valid: true),
                .init(116, "r too large", message: "313233343030",
                      signature: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffcffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254e", valid: false),
            ]),
        WycheproofP256Key(
            x: "ab05fd9d0de26b9ce6f4819652d9fc69193d0aa398f0fba8013e09c582204554",
            y: "19235271228c786759095d12b75af0692dd4103f19f6a8c32f49435a1e9b8d45",
            tests: [
                .init(117, "r,s are large", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254fffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254e", valid: true),
            ]),
        WycheproofP256Key(
            x: "80984f39a1ff38a86a68aa4201b6be5dfbfecf876219710b07badf6fdd4c6c56",
            y: "11feb97390d9826e7a06dfb41871c940d74415ed3cac2089f1445019bb55ed95",
            tests: [
                .init(118, "r and s^-1 have a large Hamming weight", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd909135bdb6799286170f5ead2de4f6511453fe50914f3df2de54a36383df8dd4", valid: true),
            ]),
        WycheproofP256Key(
            x: "4201b4272944201c3294f5baa9a3232b6dd687495fcc19a70a95bc602b4f7c05",
            y: "95c37eba9ee8171c1bb5ac6feaf753bc36f463e3aef16629572c0c0a8fb0800e",
            tests: [
                .init(119, "r and s^-1 have a large Hamming weight", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd27b4577ca009376f71303fd5dd227dcef5deb773ad5f5a84360644669ca249a5", valid: true),
            ]),
        WycheproofP256Key(
            x: "a71af64de5126a4a4e02b7922d66ce9415ce88a4c9d25514d91082c8725ac957",
            y: "5d47723c8fbe580bb369fec9c2665d8e30a435b9932645482e7c9f11e872296b",
            tests: [
                .init(120, "small r and s", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000000050000000000000000000000000000000000000000000000000000000000000001", valid: true),
                .init(121, "incorrect size of signature", message: "313233343030",
                      signature: "0501", valid: false),
            ]),
        WycheproofP256Key(
            x: "6627cec4f0731ea23fc2931f90ebe5b7572f597d20df08fc2b31ee8ef16b1572",
            y: "6170ed77d8d0a14fc5c9c3c4c9be7f0d3ee18f709bb275eaf2073e258fe694a5",
            tests: [
                .init(122, "small r and s", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000000050000000000000000000000000000000000000000000000000000000000000003", valid: true),
                .init(123, "incorrect size of signature", message: "313233343030",
                      signature: "0503", valid: false),
            ]),
        WycheproofP256Key(
            x: "5a7c8825e85691cce1f5e7544c54e73f14afc010cb731343262ca7ec5a77f5bf",
            y: "ef6edf62a4497c1bd7b147fb6c3d22af3c39bfce95f30e13a16d3d7b2812f813",
            tests: [
                .init(124, "small r and s", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000000050000000000000000000000000000000000000000000000000000000000000005", valid: true),
                .init(125, "incorrect size of signature", message: "313233343030",
                      signature: "0505", valid: false),
            ]),
        WycheproofP256Key(
            x: "cbe0c29132cd738364fedd603152990c048e5e2fff996d883fa6caca7978c737",
            y: "70af6a8ce44cb41224b2603606f4c04d188e80bff7cc31ad5189d4ab0d70e8c1",
            tests: [
                .init(126, "small r and s", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000000050000000000000000000000000000000000000000000000000000000000000006", valid: true),
                .init(127, "incorrect size of signature", message: "313233343030",
                      signature: "0506", valid: false),
            ]),
        WycheproofP256Key(
            x: "2ef747671c97d9c7f9cb2f6a30d678c3d84757ba241ef7183d51a29f52d87c2e",
            y: "a8fb2ea635b761baefc1c4ded2099281b844e13e044c328553bbbafa337d8a76",
            tests: [
                .init(128, "small r and s", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000000060000000000000000000000000000000000000000000000000000000000000001", valid: true),
                .init(129, "incorrect size of signature", message: "313233343030",
                      signature: "0601", valid: false),
            ]),
        WycheproofP256Key(
            x: "931cc49cda4d87d25b1601c56c3b83b4f45e44971998f2d3e7d3c55152214edf",
            y: "058dc140abbba42fc1ddbf30dab8eb9b46ee7338b3f7ee96242bf45e1df5e995",
            tests: [
                .init(130, "small r and s", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000000060000000000000000000000000000000000000000000000000000000000000003", valid: true),
                .init(131, "incorrect size of signature", message: "313233343030",
                      signature: "0603", valid: false),
            ]),
        WycheproofP256Key(
            x: "899a4af61867e3f3c190dbb48f8bc9fc74b70a467a4a1f06477b3af2f39ab8ed",
            y: "47ac000f9ea8a3034939bf48ad5d061a69fc8495ae4df2dbec7effa03a0062b3",
            tests: [
                .init(132, "small r and s", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000000060000000000000000000000000000000000000000000000000000000000000006", valid: true),
                .init(133, "incorrect size of signature", message: "313233343030",
                      signature: "0606", valid: false),
            ]),
        WycheproofP256Key(
            x: "d03eb09913cc20c6a8d0070f0d8d2a7f63527fafa44117fce6bd1ef2aa4ae3c4",
            y: "6d5df3f45ac58fa334c6d102381b3120b7a2455600dcaff3d1a845514f12bf46",
            tests: [
                .init(134, "small r and s", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000000060000000000000000000000000000000000000000000000000000000000000007", valid: true),
                .init(135, "incorrect size of signature", message: "313233343030",
                      signature: "0607", valid: false),
                .init(136, "r is larger than n", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc6325570000000000000000000000000000000000000000000000000000000000000007", valid: false),
            ]),
        WycheproofP256Key(
            x: "3a72476291571193b4d109b2c37b59f2807e8fe9cffd804eacded903e77ca0da",
            y: "592dbc74fee0ca7508cc7bc282b0c51a143286ff53c60131668e7a0929e4ed04",
            tests: [
                .init(137, "s is larger than n", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000006ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc75fbd8", valid: false),
            ]),
        WycheproofP256Key(
            x: "d0f73792203716afd4be4329faa48d269f15313ebbba379d7783c97bf3e890d9",
            y: "971f4a3206605bec21782bf5e275c714417e8f566549e6bc68690d2363c89cc1",
            tests: [
                .init(138, "small r and s^-1", message: "313233343030",
                      signature: "00000000000000000000000000000000000000000000000000000000000001008f1e3c7862c58b16bb76eddbb76eddbb516af4f63f2d74d76e0d28c9bb75ea88", valid: true),
            ]),
        WycheproofP256Key(
            x: "4838b2be35a6276a80ef9e228140f9d9b96ce83b7a254f71ccdebbb8054ce05f",
            y: "fa9cbc123c919b19e00238198d04069043bd660a828814051fcb8aac738a6c6b",
            tests: [
                .init(139, "smallish r and s^-1", message: "313233343030",
                      signature: "000000000000000000000000000000000000000000000000002d9b4d347952d6ef3043e7329581dbb3974497710ab11505ee1c87ff907beebadd195a0ffe6d7a", valid: true),
            ]),
        WycheproofP256Key(
            x: "7393983ca30a520bbc4783dc9960746aab444ef520c0a8e771119aa4e74b0f64",
            y: "e9d7be1ab01a0bf626e709863e6a486dbaf32793afccf774e2c6cd27b1857526",
            tests: [
                .init(140, "100-bit r and small s^-1", message: "313233343030",
                      signature: "000000000000000000000000000000000000001033e67e37b32b445580bf4eff8b748b74000000008b748b748b748b7466e769ad4a16d3dcd87129b8e91d1b4d", valid: true),
            ]),
        WycheproofP256Key(
            x: "5ac331a1103fe966697379f356a937f350588a05477e308851b8a502d5dfcdc5",
            y: "fe9993df4b57939b2b8da095bf6d794265204cfe03be995a02e65d408c871c0b",
            tests: [
                .init(141, "small r and 100 bit s^-1", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000100ef9f6ba4d97c09d03178fa20b4aaad83be3cf9cb824a879fec3270fc4b81ef5b", valid: true),
            ]),
        WycheproofP256Key(
            x: "1d209be8de2de877095a399d3904c74cc458d926e27bb8e58e5eae5767c41509",
            y: "dd59e04c214f7b18dce351fc2a549893a6860e80163f38cc60a4f2c9d040d8c9",
            tests: [
                .init(142, "100-bit r and s^-1", message: "313233343030",
                      signature: "00000000000000000000000000000000000000062522bbd3ecbe7c39e93e7c25ef9f6ba4d97c09d03178fa20b4aaad83be3cf9cb824a879fec3270fc4b81ef5b", valid: true),
            ]),
        WycheproofP256Key(
            x: "083539fbee44625e3acaafa2fcb41349392cef0633a1b8fabecee0c133b10e99",
            y: "915c1ebe7bf00df8535196770a58047ae2a402f26326bb7d41d4d7616337911e",
            tests: [
                .init(143, "r and s^-1 are close to n", message: "313233343030",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc6324d5555555550000000055555555555555553ef7a8e48d07df81a693439654210c70", valid: true),
            ]),
        WycheproofP256Key(
            x: "e075effd9607d08d5f34e3652f64cfa3bd6d20c58d0a232f058491260ab212a4",
            y: "cc61760ac8b0680c1b644c03cc628ba9dc4a3c0561368489c692bd40f43aa3ca",
            tests: [
                .init(144, "r and s are 64-bit integer", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000009c44febf31c3594f000000000000000000000000000000000000000000000000839ed28247c2b06b", valid: true),
                .init(145, "incorrect size of signature", message: "313233343030",
                      signature: "9c44febf31c3594f839ed28247c2b06b", valid: false),
            ]),
        WycheproofP256Key(
            x: "cffb758c3073ea3c08efd9f7f17a85b6ae385c5a140c146ad5f1f5a826718bc8",
            y: "dfdc6bebc894144c6d418ac5d97339726ad2ae925df868426e5628e9f4e62342",
            tests: [
                .init(146, "r and s are 100-bit integer", message: "313233343030",
                      signature: "0000000000000000000000000000000000000009df8b682430beef6f5fd7c7cd000000000000000000000000000000000000000fd0a62e13778f4222a0d61c8a", valid: true),
                .init(147, "incorrect size of signature", message: "313233343030",
                      signature: "09df8b682430beef6f5fd7c7cd0fd0a62e13778f4222a0d61c8a", valid: false),
            ]),
        WycheproofP256Key(
            x: "b98740e69e61a325d5f772e3b5c4f67fb7150b16a9afeca9ddc4afcbb6fa0549",
            y: "c446e814138e4ebc82dbf86a390056d4595dcf45e381fef217a4597d7bd51498",
            tests: [
                .init(148, "r and s are 128-bit integer", message: "313233343030",
                      signature: "000000000000000000000000000000008a598e563a89f526c32ebec8de26367c0000000000000000000000000000000084f633e2042630e99dd0f1e16f7a04bf", valid: true),
                .init(149, "incorrect size of signature", message: "313233343030",
                      signature: "8a598e563a89f526c32ebec8de26367c84f633e2042630e99dd0f1e16f7a04bf", valid: false),
            ]),
        WycheproofP256Key(
            x: "84536a270c3932bb2084732adf2c768efc6d3977e5220229ea9a44888b8f9d7b",
            y: "1766398cdac2fc8000017b29a7ba15a58f196037f35f7008ed4286ddff00fd46",
            tests: [
                .init(150, "r and s are 160-bit integer", message: "313233343030",
                      signature: "000000000000000000000000aa6eeb5823f7fa31b466bb473797f0d0314c0bdf000000000000000000000000e2977c479e6d25703cebbc6bd561938cc9d1bfb9", valid: true),
                .init(151, "incorrect size of signature", message: "313233343030",
                      signature: "aa6eeb5823f7fa31b466bb473797f0d0314c0bdfe2977c479e6d25703cebbc6bd561938cc9d1bfb9", valid: false),
            ]),
        WycheproofP256Key(
            x: "8aeb368a7027a4d64abdea37390c0c1d6a26f399e2d9734de1eb3d0e19373874",
            y: "05bd13834715e1dbae9b875cf07bd55e1b6691c7f7536aef3b19bf7a4adf576d",
            tests: [
                .init(152, "s == 1", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c700000000000000000000000000000000000000000000000000000000000000001", valid: true),
                .init(153, "s == 0", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c700000000000000000000000000000000000000000000000000000000000000000", valid: false),
            ]),
        WycheproofP256Key(
            x: "61722eaba731c697c7a9ba4d0afdbb5713d8aa12b0eab601bb33dbaf792c5adc",
            y: "272cd993b2b663aba5b3a26c101182ff178684945e83879e71598b95fe647dfc",
            tests: [
                .init(154, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c7002f676969f451a8ccafa4c4f09791810e6d632dbd60b1d5540f3284fbe1889b0", valid: true),
            ]),
        WycheproofP256Key(
            x: "c4c91981e720e20d7e478ff19d09b95a98f58c0f469b72801a8ce844a3473165",
            y: "94afcd4188182e7779889b3258d0368ece1e66797fe7c648c6f0b9e26bd71871",
            tests: [
                .init(155, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c704e260962e33362ef0046126d2d5a4edc6947ab20e19b8ec19cf79e5908b6e628", valid: true),
            ]),
        WycheproofP256Key(
            x: "d58d47bf49bc8f416641f6f760fcbca80aa52a814e56a5fa40bab44fd6f63172",
            y: "16deaa84d45d8e0e29cc9ecf5653f8ee6444750813becae8deb42b04ba07a634",
            tests: [
                .init(156, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c70077ed0d8f20f697d8fc591ac64dd5219c7932122b4f9b9ec6441e44a0092cf21", valid: true),
            ]),
        WycheproofP256Key(
            x: "91e305822e5e44f3fdb616e2ef42cd98f241b86e9f68815bc4dba6a945e4eefb",
            y: "3c5937e2ac1d9466f6d65e49b35fc8d75ffc22e1fe2f32af42f5fa3c26f9b4b0",
            tests: [
                .init(157, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c703e0292a67e181c6c0105ee35e956e78e9bdd033c6e71ae57884039a245e4175f", valid: true),
            ]),
        WycheproofP256Key(
            x: "24a0bc4d16dbbd40d2fd81a7c3f8d8ec741607d5bb406a0611cc60d0e683bd46",
            y: "b575cad039c15f7f3dffcfc007b4b0f743c871ecc76a504a32672fd84526d861",
            tests: [
                .init(158, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c7013d22b06d6b8f5d97e0c64962b4a3bae30f668ca6217ef5b35d799f159e23ebe", valid: true),
            ]),
        WycheproofP256Key(
            x: "d24dd06745cafb39186d22a92aa0e58169a79ab69488628a9da5ed3ef747269b",
            y: "7e9209d98faeb95355948adae61d5291c6015d3ee9513486d886fb05cbd25c6a",
            tests: [
                .init(159, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c704523ce342e4994bb8968bf6613f60c06c86111f15a3a389309e72cd447d5dd99", valid: true),
            ]),
        WycheproofP256Key(
            x: "8200f148e7eab1581bcd1e23946f8a9b8191d9641f9560341721f9d3fec3d63e",
            y: "ce795669e0481e035de8623d716a6984d0a4809d6c65519443ee55260f7f3dcb",
            tests: [
                .init(160, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c7037d765be3c9c78189ad30edb5097a4db670de11686d01420e37039d4677f4809", valid: true),
            ]),
        WycheproofP256Key(
            x: "a8a69c5ed33b150ce8d37ac197070ed894c05d47258a80c9041d92486622024d",
            y: "e85997c9666b60a393568efede8f4ca0167c1e10f626e62fc1b8c8e9c6ba6ed7",
            tests: [
                .init(161, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c7044237823b54e0c74c2bf5f759d9ac5f8cb897d537ffa92effd4f0bb6c9acd860", valid: true),
            ]),
        WycheproofP256Key(
            x: "ed0587e75b3b9a1dd0794f41d1729fcd432b2436cbf51c230d8bc72732731817",
            y: "35a57f09c7873d3964aa8102c9e25fa53070cd924cb7e3a459174740b8b71c34",
            tests: [
                .init(162, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c70266d30a485385906054ca86d46f5f2b17e7f4646a3092092ad92877126538111", valid: true),
            ]),
        WycheproofP256Key(
            x: "077091d99004a99ee08224e59a46a70495e6fba4eff681c3ce42127e588681ef",
            y: "4f1c16c77dfa440dde18245c9de76243d8f2fd9dea3f2782d6c04974d02f25dc",
            tests: [
                .init(163, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c70538c7b3798e84d0ce90340165806348971ed44db8f0c674f5f215968390f92ee", valid: true),
            ]),
        WycheproofP256Key(
            x: "616a8b8e57d82c11678f5827911024cd23a16cb52a65f230fb554a7b110c35a5",
            y: "bb466660be5cab3e4b587c12b45bd998bd56c7d66c2f94d03a1a6d2028d8a154",
            tests: [
                .init(164, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c706fef0ef15d1688e15e704c4e6bb8bb7f40d52d3af5c661bb78c4ed9b408699b3", valid: true),
            ]),
        WycheproofP256Key(
            x: "71dc92b2b1baa7612c4a53427a0d2dfe548fa9cf829bb6b248f736a5eb30b513",
            y: "f91c7dff1144cb36057c2b859f35bd666a7961833b06de0f45159fbae208e326",
            tests: [
                .init(165, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c706f44275e9aeb1331efcb8d58f35c0252791427e403ad84daad51d247cc2a64c6", valid: true),
            ]),
        WycheproofP256Key(
            x: "662f43ae614bd9c90ff3fcded25cf0ef186b6967a47aa6aa7ae7f396594df931",
            y: "f5f94a525edd50d3738f7a28d03d7a2a70095c8f89de9bb2c645fea8d8bac9e0",
            tests: [
                .init(166, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c7021323755b103d2f9da6ab83eccab9ad8598bcf625652f10e7a3eeee3c3945fb3", valid: true),
            ]),
        WycheproofP256Key(
            x: "dff107959bd2f7386497a5624430a0ab35e552c1a4e4dc9c298caeb96353170d",
            y: "cb5065d7947a676c76287ca8e430324f8a534b0ba6f21200e033c4b88852a3cc",
            tests: [
                .init(167, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c706c50acfe76de1289e7a5edb240f1c2a7879db6873d5d931f3c6ac467a6eac171", valid: true),
            ]),
        WycheproofP256Key(
            x: "bd0862b0bfba85036922e06f5458754aafc3075b603a814b3ac75659bf24d752",
            y: "8258a607ffca2cfe05a300cb4c3c4e1963bbb1bc54d320e16969f85aad243385",
            tests: [
                .init(168, "edge case modular inverse", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c70755b7fffb0b17ad57dca50fcefb7fe297b029df25e5ccb5069e8e70c2742c2a6", valid: true),
            ]),
        WycheproofP256Key(
            x: "b533d4695dd5b8c5e07757e55e6e516f7e2c88fa0239e23f60e8ec07dd70f287",
            y: "1b134ee58cc583278456863f33c3a85d881f7d4a39850143e29d4eaf009afe47",
            tests: [
                .init(169, "point at infinity during verify", message: "313233343030",
                      signature: "7fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a8555555550000000055555555555555553ef7a8e48d07df81a693439654210c70", valid: false),
            ]),
        WycheproofP256Key(
            x: "f50d371b91bfb1d7d14e1323523bc3aa8cbf2c57f9e284de628c8b4536787b86",
            y: "f94ad887ac94d527247cd2e7d0c8b1291c553c9730405380b14cbb209f5fa2dd",
            tests: [
                .init(170, "edge case for signature malleability", message: "313233343030",
                      signature: "7fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a97fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a8", valid: true),
            ]),
        WycheproofP256Key(
            x: "68ec6e298eafe16539156ce57a14b04a7047c221bafc3a582eaeb0d857c4d946",
            y: "97bed1af17850117fdb39b2324f220a5698ed16c426a27335bb385ac8ca6fb30",
            tests: [
                .init(171, "edge case for signature malleability", message: "313233343030",
                      signature: "7fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a97fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a9", valid: true),
            ]),
        WycheproofP256Key(
            x: "69da0364734d2e530fece94019265fefb781a0f1b08f6c8897bdf6557927c8b8",
            y: "66d2d3c7dcd518b23d726960f069ad71a933d86ef8abbcce8b20f71e2a847002",
            tests: [
                .init(172, "u1 == 1", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c70bb5a52f42f9c9261ed4361f59422a1e30036e7c32b270c8807a419feca605023", valid: true),
            ]),
        WycheproofP256Key(
            x: "d8adc00023a8edc02576e2b63e3e30621a471e2b2320620187bf067a1ac1ff32",
            y: "33e2b50ec09807accb36131fff95ed12a09a86b4ea9690aa32861576ba2362e1",
            tests: [
                .init(173, "u1 == n - 1", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c7044a5ad0ad0636d9f12bc9e0a6bdd5e1cbcb012ea7bf091fcec15b0c43202d52e", valid: true),
            ]),
        WycheproofP256Key(
            x: "3623ac973ced0a56fa6d882f03a7d5c7edca02cfc7b2401fab3690dbe75ab785",
            y: "8db06908e64b28613da7257e737f39793da8e713ba0643b92e9bb3252be7f8fe",
            tests: [
                .init(174, "u2 == 1", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c70555555550000000055555555555555553ef7a8e48d07df81a693439654210c70", valid: true),
            ]),
        WycheproofP256Key(
            x: "cf04ea77e9622523d894b93ff52dc3027b31959503b6fa3890e5e04263f922f1",
            y: "e8528fb7c006b3983c8b8400e57b4ed71740c2f3975438821199bedeaecab2e9",
            tests: [
                .init(175, "u2 == n - 1", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c70aaaaaaaa00000000aaaaaaaaaaaaaaaa7def51c91a0fbf034d26872ca84218e1", valid: true),
            ]),
        WycheproofP256Key(
            x: "db7a2c8a1ab573e5929dc24077b508d7e683d49227996bda3e9f78dbeff77350",
            y: "4f417f3bc9a88075c2e0aadd5a13311730cf7cc76a82f11a36eaf08a6c99a206",
            tests: [
                .init(176, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffde91e1ba60fdedb76a46bcb51dc0b8b4b7e019f0a28721885fa5d3a8196623397", valid: true),
            ]),
        WycheproofP256Key(
            x: "dead11c7a5b396862f21974dc4752fadeff994efe9bbd05ab413765ea80b6e1f",
            y: "1de3f0640e8ac6edcf89cff53c40e265bb94078a343736df07aa0318fc7fe1ff",
            tests: [
                .init(177, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffdfdea5843ffeb73af94313ba4831b53fe24f799e525b1e8e8c87b59b95b430ad9", valid: true),
            ]),
        WycheproofP256Key(
            x: "d0bc472e0d7c81ebaed3a6ef96c18613bb1fea6f994326fbe80e00dfde67c7e9",
            y: "986c723ea4843d48389b946f64ad56c83ad70ff17ba85335667d1bb9fa619efd",
            tests: [
                .init(178, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd03ffcabf2f1b4d2a65190db1680d62bb994e41c5251cd73b3c3dfc5e5bafc035", valid: true),
            ]),
        WycheproofP256Key(
            x: "a0a44ca947d66a2acb736008b9c08d1ab2ad03776e02640f78495d458dd51c32",
            y: "6337fe5cf8c4604b1f1c409dc2d872d4294a4762420df43a30a2392e40426add",
            tests: [
                .init(179, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd4dfbc401f971cd304b33dfdb17d0fed0fe4c1a88ae648e0d2847f74977534989", valid: true),
            ]),
        WycheproofP256Key(
            x: "c9c2115290d008b45fb65fad0f602389298c25420b775019d42b62c3ce8a96b7",
            y: "3877d25a8080dc02d987ca730f0405c2c9dbefac46f9e601cc3f06e9713973fd",
            tests: [
                .init(180, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffdbc4024761cd2ffd43dfdb17d0fed112b988977055cd3a8e54971eba9cda5ca71", valid: true),
            ]),
        WycheproofP256Key(
            x: "5eca1ef4c287dddc66b8bccf1b88e8a24c0018962f3c5e7efa83bc1a5ff6033e",
            y: "5e79c4cb2c245b8c45abdce8a8e4da758d92a607c32cd407ecaef22f1c934a71",
            tests: [
                .init(181, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd788048ed39a5ffa77bfb62fa1fda2257742bf35d128fb3459f2a0c909ee86f91", valid: true),
            ]),
        WycheproofP256Key(
            x: "5caaa030e7fdf0e4936bc7ab5a96353e0a01e4130c3f8bf22d473e317029a47a",
            y: "deb6adc462f7058f2a20d371e9702254e9b201642005b3ceda926b42b178bef9",
            tests: [
                .init(182, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd476d9131fd381bd917d0fed112bc9e0a5924b5ed5b11167edd8b23582b3cb15e", valid: true),
            ]),
        WycheproofP256Key(
            x: "c2fd20bac06e555bb8ac0ce69eb1ea20f83a1fc3501c8a66469b1a31f619b098",
            y: "6237050779f52b615bd7b8d76a25fc95ca2ed32525c75f27ffc87ac397e6cbaf",
            tests: [
                .init(183, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd8374253e3e21bd154448d0a8f640fe46fafa8b19ce78d538f6cc0a19662d3601", valid: true),
            ]),
        WycheproofP256Key(
            x: "3fd6a1ca7f77fb3b0bbe726c372010068426e11ea6ae78ce17bedae4bba86ced",
            y: "03ce5516406bf8cfaab8745eac1cd69018ad6f50b5461872ddfc56e0db3c8ff4",
            tests: [
                .init(184, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd357cfd3be4d01d413c5b9ede36cba5452c11ee7fe14879e749ae6a2d897a52d6", valid: true),
            ]),
        WycheproofP256Key(
            x: "9cb8e51e27a5ae3b624a60d6dc32734e4989db20e9bca3ede1edf7b086911114",
            y: "b4c104ab3c677e4b36d6556e8ad5f523410a19f2e277aa895fc57322b4427544",
            tests: [
                .init(185, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd29798c5c0ee287d4a5e8e6b799fd86b8df5225298e6ffc807cd2f2bc27a0a6d8", valid: true),
            ]),
        WycheproofP256Key(
            x: "a3e52c156dcaf10502620b7955bc2b40bc78ef3d569e1223c262512d8f49602a",
            y: "4a2039f31c1097024ad3cc86e57321de032355463486164cf192944977df147f",
            tests: [
                .init(186, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd0b70f22c781092452dca1a5711fa3a5a1f72add1bf52c2ff7cae4820b30078dd", valid: true),
            ]),
        WycheproofP256Key(
            x: "f19b78928720d5bee8e670fb90010fb15c37bf91b58a5157c3f3c059b2655e88",
            y: "cf701ec962fb4a11dcf273f5dc357e58468560c7cfeb942d074abd4329260509",
            tests: [
                .init(187, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd16e1e458f021248a5b9434ae23f474b43ee55ba37ea585fef95c90416600f1ba", valid: true),
            ]),
        WycheproofP256Key(
            x: "83a744459ecdfb01a5cf52b27a05bb7337482d242f235d7b4cb89345545c90a8",
            y: "c05d49337b9649813287de9ffe90355fd905df5f3c32945828121f37cc50de6e",
            tests: [
                .init(188, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd2252d6856831b6cf895e4f0535eeaf0e5e5809753df848fe760ad86219016a97", valid: true),
            ]),
        WycheproofP256Key(
            x: "dd13c6b34c56982ddae124f039dfd23f4b19bbe88cee8e528ae51e5d6f3a21d7",
            y: "bfad4c2e6f263fe5eb59ca974d039fc0e4c3345692fb5320bdae4bd3b42a45ff",
            tests: [
                .init(189, "edge case for u1", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd81ffe55f178da695b28c86d8b406b15dab1a9e39661a3ae017fbe390ac0972c3", valid: true),
            ]),
        WycheproofP256Key(
            x: "67e6f659cdde869a2f65f094e94e5b4dfad636bbf95192feeed01b0f3deb7460",
            y: "a37e0a51f258b7aeb51dfe592f5cfd5685bbe58712c8d9233c62886437c38ba0",
            tests: [
                .init(190, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd7fffffffaaaaaaaaffffffffffffffffe9a2538f37b28a2c513dee40fecbb71a", valid: true),
            ]),
        WycheproofP256Key(
            x: "2eb6412505aec05c6545f029932087e490d05511e8ec1f599617bb367f9ecaaf",
            y: "805f51efcc4803403f9b1ae0124890f06a43fedcddb31830f6669af292895cb0",
            tests: [
                .init(191, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffdb62f26b5f2a2b26f6de86d42ad8a13da3ab3cccd0459b201de009e526adf21f2", valid: true),
            ]),
        WycheproofP256Key(
            x: "84db645868eab35e3a9fd80e056e2e855435e3a6b68d75a50a854625fe0d7f35",
            y: "6d2589ac655edc9a11ef3e075eddda9abf92e72171570ef7bf43a2ee39338cfe",
            tests: [
                .init(192, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffdbb1d9ac949dd748cd02bbbe749bd351cd57b38bb61403d700686aa7b4c90851e", valid: true),
            ]),
        WycheproofP256Key(
            x: "91b9e47c56278662d75c0983b22ca8ea6aa5059b7a2ff7637eb2975e386ad663",
            y: "49aa8ff283d0f77c18d6d11dc062165fd13c3c0310679c1408302a16854ecfbd",
            tests: [
                .init(193, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd66755a00638cdaec1c732513ca0234ece52545dac11f816e818f725b4f60aaf2", valid: true),
            ]),
        WycheproofP256Key(
            x: "f3ec2f13caf04d0192b47fb4c5311fb6d4dc6b0a9e802e5327f7ec5ee8e4834d",
            y: "f97e3e468b7d0db867d6ecfe81e2b0f9531df87efdb47c1338ac321fefe5a432",
            tests: [
                .init(194, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd55a00c9fcdaebb6032513ca0234ecfffe98ebe492fdf02e48ca48e982beb3669", valid: true),
            ]),
        WycheproofP256Key(
            x: "d92b200aefcab6ac7dafd9acaf2fa10b3180235b8f46b4503e4693c670fccc88",
            y: "5ef2f3aebf5b317475336256768f7c19efb7352d27e4cccadc85b6b8ab922c72",
            tests: [
                .init(195, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffdab40193f9b5d76c064a27940469d9fffd31d7c925fbe05c919491d3057d66cd2", valid: true),
            ]),
        WycheproofP256Key(
            x: "0a88361eb92ecca2625b38e5f98bbabb96bf179b3d76fc48140a3bcd881523cd",
            y: "e6bdf56033f84a5054035597375d90866aa2c96b86a41ccf6edebf47298ad489",
            tests: [
                .init(196, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffdca0234ebb5fdcb13ca0234ecffffffffcb0dadbbc7f549f8a26b4408d0dc8600", valid: true),
            ]),
        WycheproofP256Key(
            x: "d0fb17ccd8fafe827e0c1afc5d8d80366e2b20e7f14a563a2ba50469d84375e8",
            y: "68612569d39e2bb9f554355564646de99ac602cc6349cf8c1e236a7de7637d93",
            tests: [
                .init(197, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffdbfffffff3ea3677e082b9310572620ae19933a9e65b285598711c77298815ad3", valid: true),
            ]),
        WycheproofP256Key(
            x: "836f33bbc1dc0d3d3abbcef0d91f11e2ac4181076c9af0a22b1e4309d3edb276",
            y: "9ab443ff6f901e30c773867582997c2bec2b0cb8120d760236f3a95bbe881f75",
            tests: [
                .init(198, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd266666663bbbbbbbe6666666666666665b37902e023fab7c8f055d86e5cc41f4", valid: true),
            ]),
        WycheproofP256Key(
            x: "92f99fbe973ed4a299719baee4b432741237034dec8d72ba5103cb33e55feeb8",
            y: "033dd0e91134c734174889f3ebcf1b7a1ac05767289280ee7a794cebd6e69697",
            tests: [
                .init(199, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffdbfffffff36db6db7a492492492492492146c573f4c6dfc8d08a443e258970b09", valid: true),
            ]),
        WycheproofP256Key(
            x: "d35ba58da30197d378e618ec0fa7e2e2d12cffd73ebbb2049d130bba434af09e",
            y: "ff83986e6875e41ea432b7585a49b3a6c77cbb3c47919f8e82874c794635c1d2",
            tests: [
                .init(200, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffdbfffffff2aaaaaab7fffffffffffffffc815d0e60b3e596ecb1ad3a27cfd49c4", valid: true),
            ]),
        WycheproofP256Key(
            x: "8651ce490f1b46d73f3ff475149be29136697334a519d7ddab0725c8d0793224",
            y: "e11c65bd8ca92dc8bc9ae82911f0b52751ce21dd9003ae60900bd825f590cc28",
            tests: [
                .init(201, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd7fffffff55555555ffffffffffffffffd344a71e6f651458a27bdc81fd976e37", valid: true),
            ]),
        WycheproofP256Key(
            x: "6d8e1b12c831a0da8795650ff95f101ed921d9e2f72b15b1cdaca9826b9cfc6d",
            y: "ef6d63e2bc5c089570394a4bc9f892d5e6c7a6a637b20469a58c106ad486bf37",
            tests: [
                .init(202, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd3fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192aa", valid: true),
            ]),
        WycheproofP256Key(
            x: "0ae580bae933b4ef2997cbdbb0922328ca9a410f627a0f7dff24cb4d920e1542",
            y: "8911e7f8cc365a8a88eb81421a361ccc2b99e309d8dcd9a98ba83c3949d893e3",
            tests: [
                .init(203, "edge case for u2", message: "313233343030",
                      signature: "7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffd5d8ecd64a4eeba466815ddf3a4de9a8e6abd9c5db0a01eb80343553da648428f", valid: true),
            ]),
        WycheproofP256Key(
            x: "5b812fd521aafa69835a849cce6fbdeb6983b442d2444fe70e134c027fc46963",
            y: "838a40f2a36092e9004e92d8d940cf5638550ce672ce8b8d4e15eba5499249e9",
            tests: [
                .init(204, "point duplication during verification", message: "313233343030",
                      signature: "6f2347cab7dd76858fe0555ac3bc99048c4aacafdfb6bcbe05ea6c42c4934569bb726660235793aa9957a61e76e00c2c435109cf9a15dd624d53f4301047856b", valid: true),
            ]),
        WycheproofP256Key(
            x: "5b812fd521aafa69835a849cce6fbdeb6983b442d2444fe70e134c027fc46963",
            y: "7c75bf0c5c9f6d17ffb16d2726bf30a9c7aaf31a8d317472b1ea145ab66db616",
            tests: [
                .init(205, "duplication bug", message: "313233343030",
                      signature: "6f2347cab7dd76858fe0555ac3bc99048c4aacafdfb6bcbe05ea6c42c4934569bb726660235793aa9957a61e76e00c2c435109cf9a15dd624d53f4301047856b", valid: false),
            ]),
        WycheproofP256Key(
            x: "6adda82b90261b0f319faa0d878665a6b6da497f09c903176222c34acfef72a6",
            y: "47e6f50dcc40ad5d9b59f7602bb222fad71a41bf5e1f9df4959a364c62e488d9",
            tests: [
                .init(206, "point with x-coordinate 0", message: "313233343030",
                      signature: "0000000000000000000000000000000000000000000000000000000000000001555555550000000055555555555555553ef7a8e48d07df81a693439654210c70", valid: false),
            ]),
        WycheproofP256Key(
            x: "2fca0d0a47914de77ed56e7eccc3276a601120c6df0069c825c8f6a01c9f3820",
            y: "65f3450a1d17c6b24989a39beb1c7decfca8384fbdc294418e5d807b3c6ed7de",
            tests: [
                .init(207, "point with x-coordinate 0", message: "313233343030",
                      signature: "010000000000000000000000000000000000000000000000000000000000000000003333333300000000333333333333333325c7cbbc549e52e763f1f55a327a3aa9", valid: false),
            ]),
        WycheproofP256Key(
            x: "dd86d3b5f4a13e8511083b78002081c53ff467f11ebd98a51a633db76665d250",
            y: "45d5c8200c89f2fa10d849349226d21d8dfaed6ff8d5cb3e1b7e17474ebc18f7",
            tests: [
                .init(208, "comparison with point at infinity ", message: "313233343030",
                      signature: "555555550000000055555555555555553ef7a8e48d07df81a693439654210c703333333300000000333333333333333325c7cbbc549e52e763f1f55a327a3aa9", valid: false),
            ]),
        WycheproofP256Key(
            x: "4fea55b32cb32aca0c12c4cd0abfb4e64b0f5a516e578c016591a93f5a0fbcc5",
            y: "d7d3fd10b2be668c547b212f6bb14c88f0fecd38a8a4b2c785ed3be62ce4b280",
            tests: [
                .init(209, "extreme value for k and edgecase s", message: "313233343030",
                      signature: "7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978555555550000000055555555555555553ef7a8e48d07df81a693439654210c70", valid: true),
            ]),
        WycheproofP256Key(
            x: "c6a771527024227792170a6f8eee735bf32b7f98af669ead299802e32d7c3107",
            y: "bc3b4b5e65ab887bbd343572b3e5619261fe3a073e2ffd78412f726867db589e",
            tests: [
                .init(210, "extreme value for k and s^-1", message: "313233343030",
                      signature: "7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978b6db6db6249249254924924924924924625bd7a09bec4ca81bcdd9f8fd6b63cc", valid: true),
            ]),
        WycheproofP256Key(
            x: "851c2bbad08e54ec7a9af99f49f03644d6ec6d59b207fec98de85a7d15b956ef",
            y: "cee9960283045075684b410be8d0f7494b91aa2379f60727319f10ddeb0fe9d6",
            tests: [
                .init(211, "extreme value for k and s^-1", message: "313233343030",
                      signature: "7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978cccccccc00000000cccccccccccccccc971f2ef152794b9d8fc7d568c9e8eaa7", valid: true),
            ]),
        WycheproofP256Key(
            x: "f6417c8a670584e388676949e53da7fc55911ff68318d1bf3061205acb19c48f",
            y: "8f2b743df34ad0f72674acb7505929784779cd9ac916c3669ead43026ab6d43f",
            tests: [
                .init(212, "extreme value for k and s^-1", message: "313233343030",
                      signature: "7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc476699783333333300000000333333333333333325c7cbbc549e52e763f1f55a327a3aaa", valid: true),
            ]),
        WycheproofP256Key(
            x: "501421277be45a5eefec6c639930d636032565af420cf3373f557faa7f8a0643",
            y: "8673d6cb6076e1cfcdc7dfe7384c8e5cac08d74501f2ae6e89cad195d0aa1371",
            tests: [
                .init(213, "extreme value for k and s^-1", message: "313233343030",
                      signature: "7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc4766997849249248db6db6dbb6db6db6db6db6db5a8b230d0b2b51dcd7ebf0c9fef7c185", valid: true),
            ]),
        WycheproofP256Key(
            x: "0d935bf9ffc115a527735f729ca8a4ca23ee01a4894adf0e3415ac84e808bb34",
            y: "3195a3762fea29ed38912bd9ea6c4fde70c3050893a4375850ce61d82eba33c5",
            tests: [
                .init(214, "extreme value for k", message: "313233343030",
                      signature: "7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc4766997816a4502e2781e11ac82cbc9d1edd8c981584d13e18411e2f6e0478c34416e3bb", valid: true),
            ]),
        WycheproofP256Key(
            x: "5e59f50708646be8a589355014308e60b668fb670196206c41e748e64e4dca21",
            y: "5de37fee5c97bcaf7144d5b459982f52eeeafbdf03aacbafef38e213624a01de",
            tests: [
                .init(215, "extreme value for k and edgecase s", message: "313233343030",
                      signature: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296555555550000000055555555555555553ef7a8e48d07df81a693439654210c70", valid: true),
            ]),
        WycheproofP256Key(
            x: "169fb797325843faff2f7a5b5445da9e2fd6226f7ef90ef0bfe924104b02db8e",
            y: "7bbb8de662c7b9b1cf9b22f7a2e582bd46d581d68878efb2b861b131d8a1d667",
            tests: [
                .init(216, "extreme value for k and s^-1", message: "313233343030",
                      signature: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296b6db6db6249249254924924924924924625bd7a09bec4ca81bcdd9f8fd6b63cc", valid: true),
            ]),
        WycheproofP256Key(
            x: "271cd89c000143096b62d4e9e4ca885aef2f7023d18affdaf8b7b54898148754",
            y: "0a1c6e954e32108435b55fa385b0f76481a609b9149ccb4b02b2ca47fe8e4da5",
            tests: [
                .init(217, "extreme value for k and s^-1", message: "313233343030",
                      signature: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296cccccccc00000000cccccccccccccccc971f2ef152794b9d8fc7d568c9e8eaa7", valid: true),
            ]),
        WycheproofP256Key(
            x: "3d0bc7ed8f09d2cb7ddb46ebc1ed799ab1563a9ab84bf524587a220afe499c12",
            y: "e22dc3b3c103824a4f378d96adb0a408abf19ce7d68aa6244f78cb216fa3f8df",
            tests: [
                .init(218, "extreme value for k and s^-1", message: "313233343030",
                      signature: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2963333333300000000333333333333333325c7cbbc549e52e763f1f55a327a3aaa", valid: true),
            ]),
        WycheproofP256Key(
            x: "a6c885ade1a4c566f9bb010d066974abb281797fa701288c721bcbd23663a9b7",
            y: "2e424b690957168d193a6096fc77a2b004a9c7d467e007e1f2058458f98af316",
            tests: [
                .init(219, "extreme value for k and s^-1", message: "313233343030",
                      signature: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c29649249248db6db6dbb6db6db6db6db6db5a8b230d0b2b51dcd7ebf0c9fef7c185", valid: true),
            ]),
        WycheproofP256Key(
            x: "8d3c2c2c3b765ba8289e6ac3812572a25bf75df62d87ab7330c3bdbad9ebfa5c",
            y: "4c6845442d66935b238578d43aec54f7caa1621d1af241d4632e0b780c423f5d",
            tests: [
                .init(220, "extreme value for k", message: "313233343030",
                      signature: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c29616a4502e2781e11ac82cbc9d1edd8c981584d13e18411e2f6e0478c34416e3bb", valid: true),
            ]),
        WycheproofP256Key(
            x: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
            y: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
            tests: [
                .init(221, "public key shares x-coordinate with generator", message: "313233343030",
                      signature: "bb5a52f42f9c9261ed4361f59422a1e30036e7c32b270c8807a419feca605023249249246db6db6ddb6db6db6db6db6dad4591868595a8ee6bf5f864ff7be0c2", valid: false),
                .init(222, "public key shares x-coordinate with generator", message: "313233343030",
                      signature: "44a5ad0ad0636d9f12bc9e0a6bdd5e1cbcb012ea7bf091fcec15b0c43202d52e249249246db6db6ddb6db6db6db6db6dad4591868595a8ee6bf5f864ff7be0c2", valid: false),
            ]),
        WycheproofP256Key(
            x: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
            y: "b01cbd1c01e58065711814b583f061e9d431cca994cea1313449bf97c840ae0a",
            tests: [
                .init(223, "public key shares x-coordinate with generator", message: "313233343030",
                      signature: "bb5a52f42f9c9261ed4361f59422a1e30036e7c32b270c8807a419feca605023249249246db6db6ddb6db6db6db6db6dad4591868595a8ee6bf5f864ff7be0c2", valid: false),
                .init(224, "public key shares x-coordinate with generator", message: "313233343030",
                      signature: "44a5ad0ad0636d9f12bc9e0a6bdd5e1cbcb012ea7bf091fcec15b0c43202d52e249249246db6db6ddb6db6db6db6db6dad4591868595a8ee6bf5f864ff7be0c2", valid: false),
            ]),
        WycheproofP256Key(
            x: "04aaec73635726f213fb8a9e64da3b8632e41495a944d0045b522eba7240fad5",
            y: "87d9315798aaa3a5ba01775787ced05eaaf7b4e09fc81d6d1aa546e8365d525d",
            tests: [
                .init(225, "pseudorandom signature", message: "",
                      signature: "b292a619339f6e567a305c951c0dcbcc42d16e47f219f9e98e76e09d8770b34a0177e60492c5a8242f76f07bfe3661bde59ec2a17ce5bd2dab2abebdf89a62e2", valid: true),
                .init(226, "pseudorandom signature", message: "4d7367",
                      signature: "530bd6b0c9af2d69ba897f6b5fb59695cfbf33afe66dbadcf5b8d2a2a6538e23d85e489cb7a161fd55ededcedbf4cc0c0987e3e3f0f242cae934c72caa3f43e9", valid: true),
                .init(227, "pseudorandom signature", message: "313233343030",
                      signature: "a8ea150cb80125d7381c4c1f1da8e9de2711f9917060406a73d7904519e51388f3ab9fa68bd47973a73b2d40480c2ba50c22c9d76ec217257288293285449b86", valid: true),
                .init(228, "pseudorandom signature", message: "0000000000000000000000000000000000000000",
                      signature: "986e65933ef2ed4ee5aada139f52b70539aaf63f00a91f29c69178490d57fb713dafedfb8da6189d372308cbf1489bbbdabf0c0217d1c0ff0f701aaa7a694b9c", valid: true),
            ]),
        WycheproofP256Key(
            x: "4f337ccfd67726a805e4f1600ae2849df3807eca117380239fbd816900000000",
            y: "ed9dea124cc8c396416411e988c30f427eb504af43a3146cd5df7ea60666d685",
            tests: [
                .init(229, "x-coordinate of the public key has many trailing 0's", message: "4d657373616765",
                      signature: "d434e262a49eab7781e353a3565e482550dd0fd5defa013c7f29745eff3569f19b0c0a93f267fb6052fd8077be769c2b98953195d7bc10de844218305c6ba17a", valid: true),
                .init(230, "x-coordinate of the public key has many trailing 0's", message: "4d657373616765",
                      signature: "0fe774355c04d060f76d79fd7a772e421463489221bf0a33add0be9b1979110b500dcba1c69a8fbd43fa4f57f743ce124ca8b91a1f325f3fac6181175df55737", valid: true),
                .init(231, "x-coordinate of the public key has many trailing 0's", message: "4d657373616765",
                      signature: "bb40bf217bed3fb3950c7d39f03d36dc8e3b2cd79693f125bfd06595ee1135e3541bf3532351ebb032710bdb6a1bf1bfc89a1e291ac692b3fa4780745bb55677", valid: true),
            ]),
        WycheproofP256Key(
            x: "3cf03d614d8939cfd499a07873fac281618f06b8ff87e8015c3f497265004935",
            y: "84fa174d791c72bf2ce3880a8960dd2a7c7a1338a82f85a9e59cdbde80000000",
            tests: [
                .init(232, "y-coordinate of the public key has many trailing 0's", message: "4d657373616765",
                      signature: "664eb7ee6db84a34df3c86ea31389a5405badd5ca99231ff556d3e75a233e73a59f3c752e52eca46137642490a51560ce0badc678754b8f72e51a2901426a1bd", valid: true),
                .init(233, "y-coordinate of the public key has many trailing 0's", message: "4d657373616765",
                      signature: "4cd0429bbabd2827009d6fcd843d4ce39c3e42e2d1631fd001985a79d1fd8b439638bf12dd682f60be7ef1d0e0d98f08b7bca77a1a2b869ae466189d2acdabe3", valid: true),
                .init(234, "y-coordinate of the public key has many trailing 0's", message: "4d657373616765",
                      signature: "e56c6ea2d1b017091c44d8b6cb62b9f460e3ce9aed5e5fd41e8added97c56c04a308ec31f281e955be20b457e463440b4fcf2b80258078207fc1378180f89b55", valid: true),
            ]),
        WycheproofP256Key(
            x: "3cf03d614d8939cfd499a07873fac281618f06b8ff87e8015c3f497265004935",
            y: "7b05e8b186e38d41d31c77f5769f22d58385ecc857d07a561a6324217fffffff",
            tests: [
                .init(235, "y-coordinate of the public key has many trailing 1's", message: "4d657373616765",
                      signature: "1158a08d291500b4cabed3346d891eee57c176356a2624fb011f8fbbf3466830228a8c486a736006e082325b85290c5bc91f378b75d487dda46798c18f285519", valid: true),
                .init(236, "y-coordinate of the public key has many trailing 1's", message: "4d657373616765",
                      signature: "b1db9289649f59410ea36b0c0fc8d6aa2687b29176939dd23e0dde56d309fa9d3e1535e4280559015b0dbd987366dcf43a6d1af5c23c7d584e1c3f48a1251336", valid: true),
                .init(237, "y-coordinate of the public key has many trailing 1's", message: "4d657373616765",
                      signature: "b7b16e762286cb96446aa8d4e6e7578b0a341a79f2dd1a220ac6f0ca4e24ed86ddc60a700a139b04661c547d07bbb0721780146df799ccf55e55234ecb8f12bc", valid: true),
            ]),
        WycheproofP256Key(
            x: "2829c31faa2e400e344ed94bca3fcd0545956ebcfe8ad0f6dfa5ff8effffffff",
            y: "a01aafaf000e52585855afa7676ade284113099052df57e7eb3bd37ebeb9222e",
            tests: [
                .init(238, "x-coordinate of the public key has many trailing 1's", message: "4d657373616765",
                      signature: "d82a7c2717261187c8e00d8df963ff35d796edad36bc6e6bd1c91c670d9105b43dcabddaf8fcaa61f4603e7cbac0f3c0351ecd5988efb23f680d07debd139929", valid: true),
                .init(239, "x-coordinate of the public key has many trailing 1's", message: "4d657373616765",
                      signature: "5eb9c8845de68eb13d5befe719f462d77787802baff30ce96a5cba063254af782c026ae9be2e2a5e7ca0ff9bbd92fb6e44972186228ee9a62b87ddbe2ef66fb5", valid: true),
                .init(240, "x-coordinate of the public key has many trailing 1's", message: "4d657373616765",
                      signature: "96843dd03c22abd2f3b782b170239f90f277921becc117d0404a8e4e36230c28f2be378f526f74a543f67165976de9ed9a31214eb4d7e6db19e1ede123dd991d", valid: true),
            ]),
        WycheproofP256Key(
            x: "fffffff948081e6a0458dd8f9e738f2665ff9059ad6aac0708318c4ca9a7a4f5",
            y: "5a8abcba2dda8474311ee54149b973cae0c0fb89557ad0bf78e6529a1663bd73",
            tests: [
                .init(241, "x-coordinate of the public key is large", message: "4d657373616765",
                      signature: "766456dce1857c906f9996af729339464d27e9d98edc2d0e3b760297067421f6402385ecadae0d8081dccaf5d19037ec4e55376eced699e93646bfbbf19d0b41", valid: true),
                .init(242, "x-coordinate of the public key is large", message: "4d657373616765",
                      signature: "c605c4b2edeab20419e6518a11b2dbc2b97ed8b07cced0b19c34f777de7b9fd9edf0f612c5f46e03c719647bc8af1b29b2cde2eda700fb1cff5e159d47326dba", valid: true),
                .init(243, "x-coordinate of the public key is large", message: "4d657373616765",
                      signature: "d48b68e6cabfe03cf6141c9ac54141f210e64485d9929ad7b732bfe3b7eb8a84feedae50c61bd00e19dc26f9b7e2265e4508c389109ad2f208f0772315b6c941", valid: true),
            ]),
        WycheproofP256Key(
            x: "00000003fa15f963949d5f03a6f5c7f86f9e0015eeb23aebbff1173937ba748e",
            y: "1099872070e8e87c555fa13659cca5d7fadcfcb0023ea889548ca48af2ba7e71",
            tests: [
                .init(244, "x-coordinate of the public key is small", message: "4d657373616765",
                      signature: "b7c81457d4aeb6aa65957098569f0479710ad7f6595d5874c35a93d12a5dd4c7b7961a0b652878c2d568069a432ca18a1a9199f2ca574dad4b9e3a05c0a1cdb3", valid: true),
                .init(245, "x-coordinate of the public key is small", message: "4d657373616765",
                      signature: "6b01332ddb6edfa9a30a1321d5858e1ee3cf97e263e669f8de5e9652e76ff3f75939545fced457309a6a04ace2bd0f70139c8f7d86b02cb1cc58f9e69e96cd5a", valid: true),
                .init(246, "x-coordinate of the public key is small", message: "4d657373616765",
                      signature: "efdb884720eaeadc349f9fc356b6c0344101cd2fd8436b7d0e6a4fb93f106361f24bee6ad5dc05f7613975473aadf3aacba9e77de7d69b6ce48cb60d8113385d", valid: true),
            ]),
        WycheproofP256Key(
            x: "bcbb2914c79f045eaa6ecbbc612816b3be5d2d6796707d8125e9f851c18af015",
            y: "000000001352bb4a0fa2ea4cceb9ab63dd684ade5a1127bcf300a698a7193bc2",
            tests: [
                .init(247, "y-coordinate of the public key is small", message: "4d657373616765",
                      signature: "31230428405560dcb88fb5a646836aea9b23a23dd973dcbe8014c87b8b20eb070f9344d6e812ce166646747694a41b0aaf97374e19f3c5fb8bd7ae3d9bd0beff", valid: true),
                .init(248, "y-coordinate of the public key is small", message: "4d657373616765",
                      signature: "caa797da65b320ab0d5c470cda0b36b294359c7db9841d679174db34c4855743cf543a62f23e212745391aaf7505f345123d2685ee3b941d3de6d9b36242e5a0", valid: true),
                .init(249, "y-coordinate of the public key is small", message: "4d657373616765",
                      signature: "7e5f0ab5d900d3d3d7867657e5d6d36519bc54084536e7d21c336ed8001859459450c07f201faec94b82dfb322e5ac676688294aad35aa72e727ff0b19b646aa", valid: true),
            ]),
        WycheproofP256Key(
            x: "bcbb2914c79f045eaa6ecbbc612816b3be5d2d6796707d8125e9f851c18af015",
            y: "fffffffeecad44b6f05d15b33146549c2297b522a5eed8430cff596758e6c43d",
            tests: [
                .init(250, "y-coordinate of the public key is large", message: "4d657373616765",
                      signature: "d7d70c581ae9e3f66dc6a480bf037ae23f8a1e4a2136fe4b03aa69f0ca25b35689c460f8a5a5c2bbba962c8a3ee833a413e85658e62a59e2af41d9127cc47224", valid: true),
                .init(251, "y-coordinate of the public key is large", message: "4d657373616765",
                      signature: "341c1b9ff3c83dd5e0dfa0bf68bcdf4bb7aa20c625975e5eeee34bb396266b3472b69f061b750fd5121b22b11366fad549c634e77765a017902a67099e0a4469", valid: true),
                .init(252, "y-coordinate of the public key is large", message: "4d657373616765",
                      signature: "70bebe684cdcb5ca72a42f0d873879359bd1781a591809947628d313a3814f67aec03aca8f5587a4d535fa31027bbe9cc0e464b1c3577f4c2dcde6b2094798a9", valid: true),
            ]),
        WycheproofP256Key(
            x: "264d796a0dab9b376d34eea6fe297dde1c7b73e53944bc96c8f1e8a6850bb6c9",
            y: "cf5308020eed460c649ddae61d4ef8bb79958113f106befaf4f18876d12a5e64",
            tests: [
                .init(253, "r = 5, x = 5 is valid", message: "68656c6c6f2c20776f726c64",
                      signature: "0000000000000000000000000000000000000000000000000000000000000005ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254e", valid: true),
            ]),
        WycheproofP256Key(
            x: "add76677e54a92e79bbee36a70e1754838273ec4b39295e4018a587290a7fc73",
            y: "f240d625642c943e610d80d953c5c6b8a12760a624ba3b90a0b7902755e1ae79",
            tests: [
                .init(254, "r = 6, x = 5 is invalid", message: "68656c6c6f2c20776f726c64",
                      signature: "0000000000000000000000000000000000000000000000000000000000000006ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254e", valid: false),
            ]),
        WycheproofP256Key(
            x: "264d796a0dab9b376d34eea6fe297dde1c7b73e53944bc96c8f1e8a6850bb6c9",
            y: "cf5308020eed460c649ddae61d4ef8bb79958113f106befaf4f18876d12a5e64",
            tests: [
                .init(255, "r = 5 + n, x = 5 is invalid; r was not reduced mod n", message: "68656c6c6f2c20776f726c64",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632556ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254e", valid: false),
            ]),
        WycheproofP256Key(
            x: "e7e49dd82812432744fefe723f7f69663214ad1b85c02b2650b4ca0354743a32",
            y: "5223c51c415f457aec69cb019bbe3d27585b38f8b79c39dfea6c27c2f0d8146a",
            tests: [
                .init(256, "r = n - 3, x = n - 2 is invalid", message: "68656c6c6f2c20776f726c64",
                      signature: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254effffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254e", valid: false),
            ]),
        WycheproofP256Key(
            x: "ce24c99032d52ac6ead23c0ae3ec68ef41e51a281fd457808c83136d7dcce90e",
            y: "8f7a154b551e9f39c59279357aa491b2a62bdebc2bb78613883fc72936c057e0",
            tests: [
                .init(257, "r = 3, x = n + 3 is the smallest possible x with a reduction", message: "68656c6c6f2c20776f726c64",
                      signature: "0000000000000000000000000000000000000000000000000000000000000003ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254e", valid: true),
            ]),
        WycheproofP256Key(
            x: "c981c75ddfd3910387eb147098fe5658c43aaaa34c681cd6d514b6ad5b6baa6d",
            y: "14fbddb53a6e6db18e90602bc60f2e736d625765f7f2cca4be76f4eeccf12c18",
            tests: [
                .init(258, "r = 4, x = n + 3 is invalid", message: "68656c6c6f2c20776f726c64",
                      signature: "0000000000000000000000000000000000000000000000000000000000000004ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254e", valid: false),
            ]),
        WycheproofP256Key(
            x: "0ec505bc19b14a43e05678cccf07a443d3e871a2e19b68a4da91859a0650f324",
            y: "77300e4f64e9982d94dff5d294428bb37cc9be66117cae9c389d2d495f68b987",
            tests: [
                .init(259, "r = p - n + 5, x = 5 is invalid; r is too large to compare r + n with x", message: "68656c6c6f2c20776f726c64",
                      signature: "000000000000000000000000000000004319055358e8617b0c46353d039cdab3ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254e", valid: false),
            ]),
        WycheproofP256Key(
            x: "d42ce21e730f3d2a84e949828574b4dceeb77d4f89556735f34fba03028ee3ed",
            y: "32daf8bfd3f0a7a0821170840f4e032056722386b35d9bdd4f4f450696f4fb52",
            tests: [
                .init(260, "r = 2^256 - n + 5, x = 5 is invalid; r + n is too large to compare r + n with x, and overflows 2^256 bits", message: "68656c6c6f2c20776f726c64",
                      signature: "00000000ffffffff00000000000000004319055258e8617b0c46353d039cdab4ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254e", valid: false),
            ]),
        WycheproofP256Key(
            x: "6955a72c0dad4ed60356f7692649b951fa8ea474bf1cc9549b96c68de4782dfa",
            y: "e012ffc24e92c72be71ff2622ee7e549dcb59e7b708f6921c4d4ea29512e2aba",
            tests: [
                .init(261, "s = 2^128", message: "68656c6c6f2c20776f726c64",
                      signature: "5f6d3aa0d327c13702513d4299f297ab182fcf670f96291fab19572e7a6e01c40000000000000000000000000000000100000000000000000000000000000000", valid: true),
                .init(262, "s = n - 2^128", message: "68656c6c6f2c20776f726c64",
                      signature: "5f6d3aa0d327c13702513d4299f297ab182fcf670f96291fab19572e7a6e01c4ffffffff00000000fffffffffffffffebce6faada7179e84f3b9cac2fc632551", valid: true),
            ]),
    ]
}
