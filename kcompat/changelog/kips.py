"""Where each KIP that Kafka's specs cite is read: its page on Apache's Confluence.

A KIP's page address carries its title (``display/KAFKA/KIP-890%3A+Transactions+...``),
which a spec's comment never gives, and Confluence finds no page by its number alone.
So the pages of the KIPs Kafka's spec files cite (every one, in Kafka's history up to
4.0) are listed here, each address as Kafka's client libraries link it (a few pages are
known only by their id); any other KIP is found with Confluence's search for its number.
"""

from __future__ import annotations

from types import MappingProxyType

_WIKI = "https://cwiki.apache.org/confluence"
#: A KIP that is not listed: Confluence's search for it (the page is its first result).
SEARCH = _WIKI + "/dosearchsite.action?queryString=%22KIP-{}%22"

#: The page of each KIP a Kafka spec cites: ``display/KAFKA/`` and the page's title, or
#: ``pages/viewpage.action?pageId=`` where the page is linked by its id.
_PAGES = MappingProxyType(
    {
        74: "KIP-74%3A+Add+Fetch+Response+Size+Limit+in+Bytes",
        110: "KIP-110%3A+Add+Codec+for+ZStandard+Compression",
        320: "KIP-320%3A+Allow+fetchers+to+detect+and+handle+log+truncation",
        405: "KIP-405%3A+Kafka+Tiered+Storage",
        460: "KIP-460%3A+Admin+Leader+Election+RPC",
        464: "pageId=113708722",  # Defaults for AdminClient#createTopic
        467: "KIP-467%3A+Augment+ProduceResponse+error+messaging+for+specific+culprit+records",
        511: "KIP-511%3A+Collect+and+Expose+Client%27s+Name+and+Version+in+the+Brokers",
        516: "KIP-516%3A+Topic+Identifiers",
        518: "KIP-518%3A+Allow+listing+consumer+groups+per+state",
        525: "KIP-525+-+Return+topic+metadata+and+configs+in+CreateTopics+response",
        559: "KIP-559%3A+Make+the+Kafka+Protocol+Friendlier+with+L7+Proxies",
        570: "KIP-570%3A+Add+leader+epoch+in+StopReplicaRequest",
        599: "KIP-599%3A+Throttle+Create+Topic%2C+Create+Partition+and+Delete+Topic+Operations",
        699: "KIP-699%3A+Update+FindCoordinator+to+resolve+multiple+Coordinators+at+a+time",
        700: "KIP-700%3A+Add+Describe+Cluster+API",
        704: "KIP-704%3A+Send+a+hint+to+the+partition+leader+to+recover+the+partition",
        734: "KIP-734%3A+Improve+AdminClient.listOffsets+to+return+timestamp+and+offset+for+the"
        "+record+with+the+largest+timestamp",
        800: "KIP-800%3A+Add+reason+to+JoinGroupRequest+and+LeaveGroupRequest",
        836: "KIP-836%3A+Addition+of+Information+in+DescribeQuorumResponse+about+Voter+Lag",
        841: "KIP-841%3A+Fenced+replicas+should+not+be+allowed+to+join+the+ISR+in+KRaft",
        848: "KIP-848%3A+The+Next+Generation+of+the+Consumer+Rebalance+Protocol",
        853: "KIP-853%3A+KRaft+Controller+Membership+Changes",
        858: "KIP-858%3A+Handle+JBOD+broker+disk+failure+in+KRaft",
        866: "KIP-866+ZooKeeper+to+KRaft+Migration",
        890: "KIP-890%3A+Transactions+Server-Side+Defense",
        903: "KIP-903%3A+Replicas+with+stale+broker+epoch+should+not+be+allowed+to+join+the+ISR",
        915: "KIP-915%3A+Txn+and+Group+Coordinator+Downgrade+Foundation",
        919: "KIP-919%3A+Allow+AdminClient+to+Talk+Directly+with+the+KRaft+Controller+Quorum"
        "+and+add+Controller+Registration",
        932: "KIP-932%3A+Queues+for+Kafka",
        951: "KIP-951%3A+Leader+discovery+optimisations+for+the+client",
        966: "KIP-966%3A+Eligible+Leader+Replicas",
        994: "KIP-994%3A+Minor+Enhancements+to+ListTransactions+and+DescribeTransactions+APIs",
        1005: "KIP-1005%3A+Expose+EarliestLocalOffset+and+TieredOffset",
        1075: "KIP-1075%3A+Introduce+delayed+remote+list+offsets+purgatory+to+make+LIST_OFFSETS"
        "+async",
    }
)


def kip_url(number: int) -> str:
    """The page of KIP ``number`` (its Confluence search where the page is not listed)."""
    page = _PAGES.get(number)
    if page is None:
        return SEARCH.format(number)
    if page.startswith("pageId="):
        return f"{_WIKI}/pages/viewpage.action?{page}"
    return f"{_WIKI}/display/KAFKA/{page}"


def listed() -> frozenset[int]:
    """The KIPs whose page is listed."""
    return frozenset(_PAGES)
