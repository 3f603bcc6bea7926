/// Known answers from the NIST CAVP GCM test vectors (gcmtestvectors.zip, CAVS 14.0,
/// https://csrc.nist.gov/Projects/Cryptographic-Algorithm-Validation-Program), typed in
/// as hex. Each case names its file, section and Count.
enum NISTVectors {
    static let encrypt: [GCMVector] = [
        GCMVector(
            source: "gcmEncryptExtIV256.rsp [PTlen = 0, AADlen = 0] Count = 0",
            key: "b52c505a37d78eda5dd34f20c22540ea1b58963cf8e5bf8ffa85f9f2492505b4",
            iv: "516c33929df5a3284ff463d7", plaintext: "", associatedData: "",
            ciphertext: "", tag: "bdc1ac884d332457a1d2664f168c76f0"),
        GCMVector(
            source: "gcmEncryptExtIV256.rsp [PTlen = 128, AADlen = 0] Count = 0",
            key: "31bdadd96698c204aa9ce1448ea94ae1fb4a9a0b3c9d773b51bb1822666b8f22",
            iv: "0d18e06c7c725ac9e362e1ce", plaintext: "2db5168e932556f8089a0622981d017d",
            associatedData: "", ciphertext: "fa4362189661d163fcd6a56d8bf0405a",
            tag: "d636ac1bbedd5cc3ee727dc2ab4a9489"),
        GCMVector(
            source: "gcmEncryptExtIV256.rsp [PTlen = 128, AADlen = 128] Count = 0",
            key: "92e11dcdaa866f5ce790fd24501f92509aacf4cb8b1339d50c9c1240935dd08b",
            iv: "ac93a1a6145299bde902f21a", plaintext: "2d71bcfa914e4ac045b2aa60955fad24",
            associatedData: "1e0889016f67601c8ebea4943bc23ad6",
            ciphertext: "8995ae2e6df3dbf96fac7b7137bae67f",
            tag: "eca5aa77d51d4a0a14d9c51e1da474ab"),
        GCMVector(
            source: "gcmEncryptExtIV256.rsp [PTlen = 408, AADlen = 160] Count = 0",
            key: "24501ad384e473963d476edcfe08205237acfd49b5b8f33857f8114e863fec7f",
            iv: "9ff18563b978ec281b3f2794",
            plaintext:
                "27f348f9cdc0c5bd5e66b1ccb63ad920ff2219d14e8d631b3872265cf117ee86757accb158bd9abb3868fdc0d0b074b5f01b2c",
            associatedData: "adb5ec720ccf9898500028bf34afccbcaca126ef",
            ciphertext:
                "eb7cb754c824e8d96f7c6d9b76c7d26fb874ffbf1d65c6f64a698d839b0b06145dae82057ad55994cf59ad7f67c0fa5e85fab8",
            tag: "bc95c532fecc594c36d1550286a7a3f0"),
    ]

    /// Cases gcmDecrypt256.rsp marks with a plaintext: they must open to it.
    static let decryptPass: [GCMVector] = [
        GCMVector(
            source: "gcmDecrypt256.rsp [PTlen = 0, AADlen = 0] Count = 0",
            key: "f5a2b27c74355872eb3ef6c5feafaa740e6ae990d9d48c3bd9bb8235e589f010",
            iv: "58d2240f580a31c1d24948e9", plaintext: "", associatedData: "",
            ciphertext: "", tag: "15e051a5e4a5f5da6cea92e2ebee5bac"),
        GCMVector(
            source: "gcmDecrypt256.rsp [PTlen = 128, AADlen = 128] Count = 0",
            key: "54e352ea1d84bfe64a1011096111fbe7668ad2203d902a01458c3bbd85bfce14",
            iv: "df7c3bca00396d0c018495d9", plaintext: "85fc3dfad9b5a8d3258e4fc44571bd3b",
            associatedData: "7e968d71b50c1f11fd001f3fef49d045",
            ciphertext: "426e0efc693b7be1f3018db7ddbb7e4d",
            tag: "ee8257795be6a1164d7e1d2d6cac77a7"),
        GCMVector(
            source: "gcmDecrypt256.rsp [PTlen = 408, AADlen = 0] Count = 0",
            key: "4433db5fe066960bdd4e1d4d418b641c14bfcef9d574e29dcd0995352850f1eb",
            iv: "0e396446655582838f27f72f",
            plaintext:
                "d602c06b947abe06cf6aa2c5c1562e29062ad6220da9bc9c25d66a60bd85a80d4fbcc1fb4919b6566be35af9819aba836b8b47",
            associatedData: "",
            ciphertext:
                "b0d254abe43bdb563ead669192c1e57e9a85c51dba0f1c8501d1ce92273f1ce7e140dcfac94757fabb128caad16912cead0607",
            tag: "ffd0b02c92dbfcfbe9d58f7ff9e6f506"),
    ]

    /// Cases gcmDecrypt256.rsp marks FAIL: the tag does not authenticate them.
    static let decryptFail: [GCMVector] = [
        GCMVector(
            source: "gcmDecrypt256.rsp [PTlen = 0, AADlen = 0] Count = 1 (FAIL)",
            key: "e5a8123f2e2e007d4e379ba114a2fb66e6613f57c72d4e4f024964053028a831",
            iv: "51e43385bf533e168427e1ad", plaintext: "", associatedData: "",
            ciphertext: "", tag: "38fe845c66e66bdd884c2aecafd280e6"),
        GCMVector(
            source: "gcmDecrypt256.rsp [PTlen = 128, AADlen = 128] Count = 2 (FAIL)",
            key: "9a0343f850a6427120f764789ffec6d237447b898fbf51d2182f065d3861497d",
            iv: "3deef6f453dd70d92143adcd", plaintext: "",
            associatedData: "dbb8226a624520863db6897017b2a4f8",
            ciphertext: "e93165935ac18e3a2845d15fe31a9286",
            tag: "f5fc50d18766bc3d9e16dd136d45816b"),
        GCMVector(
            source: "gcmDecrypt256.rsp [PTlen = 408, AADlen = 0] Count = 1 (FAIL)",
            key: "28ae911ee685872d906de12d7696351df8ef2234a74a95efa4ea15b327338fe0",
            iv: "2fe6a815d4865181fade5fac", plaintext: "", associatedData: "",
            ciphertext:
                "1168442ef64656ef6577fb42c1919c84aae856388e4db9945bb8c9b8412bbe6458bc400444d5d2bf2630f83468f66f9e46e790",
            tag: "b75f616fd1a3d6563b62b899e5a7e522"),
    ]
}
