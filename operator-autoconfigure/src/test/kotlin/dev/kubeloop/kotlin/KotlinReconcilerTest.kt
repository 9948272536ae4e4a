package dev.kubeloop.kotlin

import dev.kubeloop.api.ObjectKey
import dev.kubeloop.api.ReconcileContext
import dev.kubeloop.api.ResourceReconciler
import dev.kubeloop.api.Result
import dev.kubeloop.api.watch.Mapper
import dev.kubeloop.api.webhook.Admission
import dev.kubeloop.api.webhook.AdmissionContext
import dev.kubeloop.api.webhook.FieldError
import dev.kubeloop.api.webhook.Validator
import io.fabric8.kubernetes.api.model.ConfigMap
import io.fabric8.kubernetes.api.model.ConfigMapBuilder
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequestBuilder
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/**
 * A reconciler, a validator and a mapper written in Kotlin against `dev.kubeloop.api`, which is
 * `@NullMarked`: Kotlin sees `String` where the API never gives null and `String?` where it may
 * (a cluster-scoped key's namespace, an allowed admission's message, the requester's user name), so
 * this compiles without a single `!!` and every possible null is handled where it can occur.
 */
class KotlinReconcilerTest {

    /** Copies the ConfigMap's "color" into a second one, named after the first: the API's non-null types used as is. */
    class ColorReconciler : ResourceReconciler<ConfigMap> {
        override fun reconcile(resource: ConfigMap, context: ReconcileContext<ConfigMap>): Result {
            val key: ObjectKey = ObjectKey.of(resource)
            val copy = ConfigMapBuilder().withNewMetadata().withName(key.name + "-copy").endMetadata()
                .addToData("color", resource.data?.get("color") ?: "none").build()
            context.apply(copy)
            return Result.done()
        }
    }

    /** Refuses a ConfigMap without a color, telling who asked: nullable values handled, none forced. */
    class ColorValidator : Validator<ConfigMap> {
        override fun validateCreate(`object`: ConfigMap, context: AdmissionContext): Admission {
            val where: String = context.namespace() ?: "the cluster"
            val who: String = context.userName() ?: "someone"
            return if (`object`.data?.containsKey("color") == true) Admission.allowed()
            else Admission.invalid(FieldError.required("data.color", "$who needs a color in $where"))
        }
    }

    /** Maps a ConfigMap to the ConfigMap named in its "owner" label, in the same namespace, if any. */
    private val ownerMapper = Mapper<ConfigMap> { configMap, _ ->
        val owner = configMap.metadata.labels?.get("owner")
        if (owner == null) emptyList() else listOf(ObjectKey.of(configMap.metadata.namespace, owner))
    }

    @Test
    fun theValidatorReadsTheNullableFieldsOfTheRequest() {
        val validator = ColorValidator()
        val request = AdmissionRequestBuilder().withUid("1").withOperation("CREATE").build()
        val context = AdmissionContext.of(request)

        val admission = validator.validateCreate(ConfigMapBuilder().withNewMetadata().withName("plain").endMetadata()
            .build(), context)

        assertThat(admission.isAllowed).isFalse()
        val message: String? = admission.message()
        assertThat(message).contains("someone needs a color in the cluster")
        assertThat(Admission.allowed().message()).isNull()
    }

    @Test
    fun aClusterScopedKeyHasANullNamespaceThatKotlinMakesUsHandle() {
        val key = ObjectKey.clusterScoped("node-1")

        val shown: String = key.namespace ?: "(cluster)"

        assertThat(shown).isEqualTo("(cluster)")
        assertThat(key.name.length).isEqualTo(6)
    }

    @Test
    fun theMapperAnswersWithKeysAndNeverNull() {
        val labelled = ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("child")
            .addToLabels("owner", "parent").endMetadata().build()
        val plain = ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("other").endMetadata().build()
        val noCaches = NoCaches()

        assertThat(ownerMapper.map(labelled, noCaches)).containsExactly(ObjectKey.of("ns", "parent"))
        assertThat(ownerMapper.map(plain, noCaches)).isEmpty()
        assertThat(ColorReconciler()).isNotNull()
    }

    private class NoCaches : dev.kubeloop.api.CacheReader {
        override fun <R : io.fabric8.kubernetes.api.model.HasMetadata> get(type: Class<R>, key: ObjectKey) =
            java.util.Optional.empty<R>()

        override fun <R : io.fabric8.kubernetes.api.model.HasMetadata> list(type: Class<R>, namespace: String?) =
            emptyList<R>()

        override fun <R : io.fabric8.kubernetes.api.model.HasMetadata> byIndex(
            type: Class<R>, index: String, namespace: String?, value: String) = emptyList<R>()
    }
}
